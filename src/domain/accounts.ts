import type { StudentStatus } from './clients.ts';

export type UserStatus = 'active' | 'disabled';

/** A person who signs in to Sesame. Never carries the password hash. */
export interface User {
  subjectId: string;
  account: string;
  displayName: string;
  email: string | null;
  emailVerified: boolean;
  studentStatus: StudentStatus;
  isAdmin: boolean;
  status: UserStatus;
  /** The person's chosen language for pages and mail (`en`, `zh-CN`); null or absent: none chosen. */
  locale?: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The form an account name is unique and looked up in: `Alice`, `ALICE` and `ａｌｉｃｅ` are one account. */
export const normalizeAccount = (account: string) => account.normalize('NFKC').toLowerCase();

export const ACCOUNT_NAME_RULE = '1-128 characters: letters, digits and . _ @ + -, starting with a letter or digit';
const ACCOUNT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const DISPLAY_NAME_MAX_LENGTH = 200;

/** Why an account name is refused, or undefined when it is acceptable. */
export const accountNameProblem = (account: string): string | undefined => (ACCOUNT_PATTERN.test(account) ? undefined : `must be ${ACCOUNT_NAME_RULE}`);

/** Why an email address is refused, or undefined when it is acceptable. */
export const emailProblem = (email: string): string | undefined => (EMAIL_PATTERN.test(email) && email.length <= 320 ? undefined : 'must be an email address');

/** Why a person's display name is refused, or undefined when it is acceptable. */
export const displayNameProblem = (displayName: string): string | undefined =>
  displayName.trim() === '' || displayName.length > DISPLAY_NAME_MAX_LENGTH ? `must be 1-${DISPLAY_NAME_MAX_LENGTH} characters` : undefined;

/** Where a page of people ends (newest first by createdAt, ties by subjectId): the last person's position. */
export interface UserPosition {
  createdAt: number;
  subjectId: string;
}

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
  createdAt: number;
  updatedAt: number;
}

/** The form an account name is unique and looked up in: `Alice`, `ALICE` and `ａｌｉｃｅ` are one account. */
export const normalizeAccount = (account: string) => account.normalize('NFKC').toLowerCase();

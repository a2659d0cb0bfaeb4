import { z } from 'zod';
import { accountNameProblem, ACCOUNT_NAME_RULE, DISPLAY_NAME_MAX_LENGTH, displayNameProblem, emailProblem } from '../../domain/accounts.ts';
import { STUDENT_STATUSES } from '../../domain/clients.ts';
import { PASSWORD_RULES, passwordProblem } from '../../domain/passwords.ts';
import { USER_STATUSES } from '../../domain/statuses.ts';
import { USER_PAGE } from '../../domain/limits.ts';
import type { User, UserPosition } from '../../domain/accounts.ts';
import { pageLimitQuery, readableText, timestamp, toIso } from './common.ts';

export const lookupQuery = z.object({ account: z.string().min(1).max(256).meta({ description: 'The exact account name (case-insensitive); no partial matches.' }) });

export const userSummaryJson = z.object({ subjectId: z.string(), account: z.string(), displayName: z.string() }).meta({ id: 'UserSummary' });
export const lookupResponse = z.object({ user: userSummaryJson });
export const presentUserSummary = (user: User): z.infer<typeof userSummaryJson> => ({ subjectId: user.subjectId, account: user.account, displayName: user.displayName });

export const adminUserJson = z
  .object({
    subjectId: z.string(),
    account: z.string(),
    displayName: z.string(),
    email: z.string().nullable(),
    emailVerified: z.boolean(),
    studentStatus: z.enum(STUDENT_STATUSES).meta({ description: 'Released as the `student_status` claim with the `student` scope.' }),
    isAdmin: z.boolean(),
    status: z.enum(USER_STATUSES).meta({ description: 'A disabled user cannot sign in anywhere and loses every session.' }),
    groups: z.array(z.string()).meta({ description: 'The names of the groups the person is in, sorted (released as the `groups` claim with the `groups` scope).' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'User' });

/** `groups`: the person's group names, sorted. */
export const presentAdminUser = (user: User, groups: readonly string[]): z.infer<typeof adminUserJson> => ({
  subjectId: user.subjectId,
  account: user.account,
  displayName: user.displayName,
  email: user.email,
  emailVerified: user.emailVerified,
  studentStatus: user.studentStatus,
  isAdmin: user.isAdmin,
  status: user.status,
  groups: [...groups],
  createdAt: toIso(user.createdAt),
  updatedAt: toIso(user.updatedAt),
});

// The cursor is the last person's creation time and subjectId, base64url-encoded: opaque to callers, a page
// boundary that stays put when people are added meanwhile.
const USER_CURSOR = /^([0-9]{1,16})\.([0-9A-Za-z_-]{1,200})$/;
const CURSOR_TEXT = /^[0-9A-Za-z_-]{1,400}$/;
export const encodeUserCursor = (position: UserPosition) => Buffer.from(`${position.createdAt}.${position.subjectId}`).toString('base64url');
const decodeUserCursor = (value: string): UserPosition | undefined => {
  const match = USER_CURSOR.exec(Buffer.from(value, 'base64url').toString());
  return match ? { createdAt: Number(match[1]), subjectId: match[2]! } : undefined;
};

export const userListQuery = z.object({
  query: z
    .string()
    .max(200, 'must be at most 200 characters')
    .optional()
    .meta({ description: 'Only people whose account, display name or email contains this text (case-insensitive); empty or absent lists everyone.' }),
  limit: pageLimitQuery(USER_PAGE, 'people'),
  before: z
    .string()
    .regex(CURSOR_TEXT, 'must be the nextBefore of the page you have')
    .transform((value, context) => {
      const position = decodeUserCursor(value);
      if (!position) context.addIssue({ code: 'custom', message: 'must be the nextBefore of the page you have' });
      return position ?? z.NEVER;
    })
    .optional()
    .meta({ description: 'Where the next page starts: the `nextBefore` of the page you have (an opaque cursor).' }),
});

export const userListResponse = z.object({
  users: z.array(adminUserJson),
  nextBefore: z.string().nullable().meta({ description: 'Pass as `before` (with the same `query`) for the next page; null on the last page.' }),
});
export const userResponse = z.object({ user: adminUserJson });
export const subjectParams = z.object({ subjectId: z.string() });

/** A domain rule as a zod check, in the rule's own words (the one place a person's fields are judged). */
const rule = (problem: (value: string) => string | undefined) => (value: string, context: z.RefinementCtx) => {
  const message = problem(value);
  if (message !== undefined) context.addIssue({ code: 'custom', message });
};

const password = z.string().superRefine(rule(passwordProblem)).meta({ minLength: PASSWORD_RULES.minLength, maxLength: PASSWORD_RULES.maxLength, writeOnly: true });
const displayName = readableText().superRefine(rule(displayNameProblem)).meta({ maxLength: DISPLAY_NAME_MAX_LENGTH });
const email = z.string().superRefine(rule(emailProblem)).meta({ maxLength: 320 });

export const createUserRequest = z
  .object({
    account: z.string().superRefine(rule(accountNameProblem)).meta({ description: `${ACCOUNT_NAME_RULE}; unique case-insensitively.` }),
    displayName,
    email: email.optional().meta({ description: 'Required with `invite: true`: the invitation goes there.' }),
    emailVerified: z.boolean().optional(),
    studentStatus: z.enum(STUDENT_STATUSES).optional().meta({ description: 'Defaults to `unknown`.' }),
    password: password.optional().meta({
      description:
        'The first password, when you have one to give. Leave it out to let the person choose it: with `invite: true` Sesame mails them a link; where Sesame sends no mail, the answer carries a one-time `setPasswordUrl` to hand to them. Must be absent with `invite: true`. (The MCP tool has no `password` argument: an assistant never handles a person\'s password.)',
    }),
    invite: z.boolean().optional().meta({
      description: 'true: create the person without a password and mail them a single-use link (valid 72 hours) to choose one. Needs outgoing mail (SMTP_URL); `email` is required, `password` and `emailVerified` must be absent (following the link verifies the address).',
    }),
    isAdmin: z.boolean().optional(),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.invite === true) {
      if (input.email === undefined) context.addIssue({ code: 'custom', path: ['email'], message: 'is required with invite: true (the invitation is mailed there)' });
      if (input.password !== undefined) context.addIssue({ code: 'custom', path: ['password'], message: 'must be absent with invite: true (the person chooses it)' });
      if (input.emailVerified !== undefined) context.addIssue({ code: 'custom', path: ['emailVerified'], message: 'must be absent with invite: true (following the link verifies the address)' });
    }
  });

export const createUserResponse = z.object({
  user: adminUserJson,
  invitation: z
    .object({ expiresAt: timestamp.meta({ description: 'When the invitation link stops working (72 hours after it was made).' }) })
    .optional()
    .meta({ description: 'Present for an invitation (`invite: true`): the link went to the person by mail and is never shown here.' }),
  setPasswordUrl: z
    .string()
    .optional()
    .meta({
      description:
        'Present when the person was created without a password where Sesame sends no mail: a single-use link, shown only in this answer (Sesame keeps only its digest), to the page where the person chooses their password. Hand it to them over a channel only they read.',
    }),
  setPasswordExpiresAt: timestamp.optional().meta({ description: 'When `setPasswordUrl` stops working (7 days after it was made).' }),
});

export const updateUserRequest = z
  .object({
    displayName: displayName.optional(),
    email: email.nullable().optional().meta({ description: 'null removes the address.' }),
    emailVerified: z.boolean().optional(),
    studentStatus: z.enum(STUDENT_STATUSES).optional(),
    status: z.enum(USER_STATUSES).optional().meta({ description: '`disabled` also ends every session of the user at once.' }),
    isAdmin: z.boolean().optional(),
  })
  .strict();

export const setPasswordRequest = z.object({ password }).strict().meta({ description: 'Sets a new password and ends every session of the user.' });

import { z } from 'zod';
import { STUDENT_STATUSES } from '../../domain/clients.ts';
import { PASSWORD_RULES } from '../../domain/passwords.ts';
import { USER_STATUSES } from '../../domain/statuses.ts';
import type { User } from '../../services/users.ts';
import { readableText, timestamp, toIso } from './common.ts';

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
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'User' });

export const presentAdminUser = (user: User): z.infer<typeof adminUserJson> => ({
  subjectId: user.subjectId,
  account: user.account,
  displayName: user.displayName,
  email: user.email,
  emailVerified: user.emailVerified,
  studentStatus: user.studentStatus,
  isAdmin: user.isAdmin,
  status: user.status,
  createdAt: toIso(user.createdAt),
  updatedAt: toIso(user.updatedAt),
});

export const userListResponse = z.object({ users: z.array(adminUserJson) });
export const userResponse = z.object({ user: adminUserJson });
export const subjectParams = z.object({ subjectId: z.string() });

const password = z.string().meta({ minLength: PASSWORD_RULES.minLength, maxLength: PASSWORD_RULES.maxLength, writeOnly: true });

export const createUserRequest = z
  .object({
    account: z.string().meta({ description: '1-128 characters: letters, digits and . _ @ + -, starting with a letter or digit; unique case-insensitively.' }),
    displayName: readableText(),
    email: z.string().optional(),
    emailVerified: z.boolean().optional(),
    studentStatus: z.enum(STUDENT_STATUSES).optional().meta({ description: 'Defaults to `unknown`.' }),
    password,
    isAdmin: z.boolean().optional(),
  })
  .strict();

export const updateUserRequest = z
  .object({
    displayName: readableText().optional(),
    email: z.string().nullable().optional().meta({ description: 'null removes the address.' }),
    emailVerified: z.boolean().optional(),
    studentStatus: z.enum(STUDENT_STATUSES).optional(),
    status: z.enum(USER_STATUSES).optional().meta({ description: '`disabled` also ends every session of the user at once.' }),
    isAdmin: z.boolean().optional(),
  })
  .strict();

export const setPasswordRequest = z.object({ password }).strict().meta({ description: 'Sets a new password and ends every session of the user.' });

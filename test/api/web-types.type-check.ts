// Compile-time only (checked by `npm run check`, not run by Vitest): the console's JSON types in
// web/src/api/types.ts, generated from the OpenAPI document (npm run openapi:sync), must stay exactly
// the shapes the zod contracts infer, so a lossy step between zod, OpenAPI and TypeScript shows here.
import type { z } from 'zod';
import type { auditLogJson } from '../../src/api/contracts/audit.ts';
import type { clientSecretPolicy, consoleContextResponse, sessionUser } from '../../src/api/contracts/auth.ts';
import type { clientJson, newSecretJson, secretInfoJson } from '../../src/api/contracts/clients.ts';
import type { memberJson } from '../../src/api/contracts/members.ts';
import type { projectJson } from '../../src/api/contracts/projects.ts';
import type { adminUserJson, userSummaryJson } from '../../src/api/contracts/users.ts';
import type * as Web from '../../web/src/api/types.ts';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assignable<From, To> = [From] extends [To] ? true : false;
type Holds<T extends true> = T;

export type WebTypesMatchContracts = [
  Holds<Same<Web.SessionUser, z.infer<typeof sessionUser>>>,
  Holds<Same<Web.SecretPolicy, z.infer<typeof clientSecretPolicy>>>,
  Holds<Same<Web.SessionContext, z.infer<typeof consoleContextResponse>>>,
  Holds<Same<Web.Project, z.infer<typeof projectJson>>>,
  Holds<Same<Web.Member, z.infer<typeof memberJson>>>,
  Holds<Same<Web.SecretInfo, z.infer<typeof secretInfoJson>>>,
  Holds<Same<Web.Client, z.infer<typeof clientJson>>>,
  Holds<Same<Web.NewSecret, z.infer<typeof newSecretJson>>>,
  // The console reads every field of an entry but treats `surface` as text.
  Holds<Assignable<z.infer<typeof auditLogJson>, Web.AuditLogEntry>>,
  // The console reads a subset of the admin view of a user.
  Holds<Assignable<z.infer<typeof adminUserJson>, Web.AdminUser>>,
  Holds<Same<Web.DirectoryUser, z.infer<typeof userSummaryJson>>>,
];

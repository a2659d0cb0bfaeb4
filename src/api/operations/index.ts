import type { AnyOperation } from '../operation.ts';
import { accountOperations } from './account.ts';
import { accountEmailOperations } from './account-email.ts';
import { assistantGrantOperations } from './assistant-grants.ts';
import { accountLocaleOperations } from './account-locale.ts';
import { listAdminAuditLogs, listAuditLogs } from './audit.ts';
import { clientOperations } from './clients.ts';
import { groupOperations } from './groups.ts';
import { accountIdentityOperations, identityProviderOperations } from './identity-providers.ts';
import { memberOperations } from './members.ts';
import { projectOperations } from './projects.ts';
import { settingsOperations } from './settings.ts';
import { userOperations } from './users.ts';

/** The operations both management surfaces share, in the order the documents list them. */
export const sharedOperations: readonly AnyOperation[] = [...projectOperations, ...memberOperations, ...clientOperations, listAuditLogs, ...userOperations, ...accountEmailOperations, ...accountLocaleOperations, listAdminAuditLogs, ...settingsOperations, ...assistantGrantOperations, ...identityProviderOperations, ...groupOperations, ...accountOperations, ...accountIdentityOperations];

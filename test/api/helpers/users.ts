import { cliActor } from '../../../src/domain/actor.ts';
import type { Services } from '../../../src/services/index.ts';

export const PASSWORD = 'a long test passphrase';

/** Accounts the suites sign in with; all share one password. */
export async function createAccounts<const N extends string>(services: Services, accounts: readonly N[], admins: readonly N[] = []) {
  const created = {} as Record<N, { subjectId: string; account: N }>;
  for (const account of accounts) {
    const user = await services.users.createUser(cliActor, { account, displayName: `${account[0]!.toUpperCase()}${account.slice(1)}`, password: PASSWORD, isAdmin: admins.includes(account) });
    created[account] = { subjectId: user.subjectId, account };
  }
  return created;
}

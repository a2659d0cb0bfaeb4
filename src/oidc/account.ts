import type { Account, FindAccount } from 'oidc-provider';
import type { Services } from '../services/index.ts';
import type { User } from '../services/users.ts';

export { CLAIMS_BY_SCOPE } from '../domain/scopes.ts';

export function claimsOf(user: User): Record<string, unknown> {
  return {
    sub: user.subjectId,
    name: user.displayName,
    preferred_username: user.account,
    ...(user.email ? { email: user.email, email_verified: user.emailVerified } : {}),
    student_status: user.studentStatus,
  };
}

/**
 * Looks the user up on every use (sign-in, token, refresh, userinfo), so a disabled account
 * stops receiving tokens and claims at once.
 */
export function createFindAccount(services: Services): FindAccount {
  return async (_ctx, subjectId): Promise<Account | undefined> => {
    const user = await services.users.getUser(subjectId);
    if (!user || user.status !== 'active') return undefined;
    return { accountId: user.subjectId, claims: () => claimsOf(user) as { sub: string } };
  };
}

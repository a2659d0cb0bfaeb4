import type { Account, FindAccount, KoaContextWithOIDC } from 'oidc-provider';
import type { Services } from '../services/index.ts';
import type { User } from '../services/people/users.ts';
import type { SesameClientFields } from './client-metadata.ts';

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
 * What the ID token carries of the person: `sub` (the engine adds acr, amr and the rest); the profile and
 * email claims only for a client with `claimsInIdToken` (DESIGN.md section 16). The engine's mask then keeps
 * only those of the granted scopes.
 */
function idTokenClaimsOf(user: User, claimsInIdToken: boolean): Record<string, unknown> {
  if (!claimsInIdToken) return { sub: user.subjectId };
  const { student_status: studentStatus, ...released } = claimsOf(user);
  void studentStatus;
  return released;
}

/**
 * Looks the user up on every use (sign-in, token, refresh, userinfo), so a disabled account
 * stops receiving tokens and claims at once. The person's groups are read only when the granted
 * scopes include `groups`: other sign-ins run no extra statement.
 */
export function createFindAccount(services: Services): FindAccount {
  return async (ctx: KoaContextWithOIDC, subjectId): Promise<Account | undefined> => {
    const user = await services.users.getUser(subjectId);
    if (!user || user.status !== 'active') return undefined;
    return {
      accountId: user.subjectId,
      claims: async (use, scope) => {
        const claimsInIdToken = (ctx.oidc?.client as (SesameClientFields & object) | undefined)?.sesame_claims_in_id_token === true;
        const claims = use === 'id_token' ? idTokenClaimsOf(user, claimsInIdToken) : claimsOf(user);
        if (typeof scope === 'string' && scope.split(' ').includes('groups')) claims.groups = await services.groups.claimGroupsOf(user.subjectId);
        return claims as { sub: string };
      },
    };
  };
}

import type { Repositories } from '../../storage/store.ts';

/**
 * Ends everything a person is signed in with, inside the caller's transaction: console and agent sessions,
 * and every OIDC session, grant, authorization code, access token and refresh token (a thief holding any of
 * them after a password reset or a disable is cut off with the rest).
 */
export async function endEverySessionOf(repos: Repositories, subjectId: string, now: number): Promise<void> {
  await repos.sessions.revokeAllOf(subjectId, now);
  await repos.oidcPayloads.revokeAllForAccount(subjectId);
}

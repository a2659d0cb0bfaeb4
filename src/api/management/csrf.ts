import { sha256Hex } from '../../domain/digests.ts';
import { csrfTokens } from '../../security/csrf-token.ts';

/**
 * The console's CSRF tokens, derived from what its cookies hold: the session token is bound to the
 * session's digest, the login token to the login-CSRF cookie's nonce.
 */
export function createCsrfTokens(cookieKeys: readonly string[]) {
  const session = csrfTokens(cookieKeys, 'console-session-csrf');
  const login = csrfTokens(cookieKeys, 'console-login-csrf');
  return {
    forSession: (sessionToken: string) => session.issue(sha256Hex(sessionToken)),
    verifySession: (sessionToken: string, presented: string | undefined) => session.verify(sha256Hex(sessionToken), presented),
    forLogin: (nonce: string) => login.issue(nonce),
    verifyLogin: (nonce: string | undefined, presented: string | undefined) => nonce !== undefined && login.verify(nonce, presented),
  };
}

export type CsrfTokens = ReturnType<typeof createCsrfTokens>;

import { createHmac, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../../domain/digests.ts';

const equal = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * CSRF tokens derived from what the cookies hold, so the server stores nothing: the session token is
 * an HMAC of the session's digest, the login token an HMAC of the login-CSRF cookie's nonce. The first
 * cookie key signs; every configured key verifies, so a key rotation does not sign everyone out.
 */
export function createCsrfTokens(cookieKeys: readonly string[]) {
  if (cookieKeys.length === 0) throw new Error('CSRF tokens need at least one cookie key');
  const mac = (key: string, purpose: string, value: string) => createHmac('sha256', key).update(`${purpose}\u0000${value}`).digest('base64url');
  const verify = (purpose: string, value: string, presented: string | undefined) =>
    typeof presented === 'string' && cookieKeys.some((key) => equal(presented, mac(key, purpose, value)));

  return {
    forSession: (sessionToken: string) => mac(cookieKeys[0]!, 'console-session-csrf', sha256Hex(sessionToken)),
    verifySession: (sessionToken: string, presented: string | undefined) => verify('console-session-csrf', sha256Hex(sessionToken), presented),
    forLogin: (nonce: string) => mac(cookieKeys[0]!, 'console-login-csrf', nonce),
    verifyLogin: (nonce: string | undefined, presented: string | undefined) => nonce !== undefined && verify('console-login-csrf', nonce, presented),
  };
}

export type CsrfTokens = ReturnType<typeof createCsrfTokens>;

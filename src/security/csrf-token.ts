import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './constant-time.ts';

/**
 * CSRF tokens that the server does not store: an HMAC of a value the request's cookies already bind
 * (a session digest, a login nonce, an interaction uid) under the cookie keys. `purpose` keeps the
 * tokens of different forms apart. The first key signs; every key verifies, so rotating the cookie
 * keys invalidates no open page.
 */
export function csrfTokens(cookieKeys: readonly string[], purpose: string) {
  if (cookieKeys.length === 0) throw new Error('CSRF tokens need at least one cookie key');
  const mac = (key: string, value: string) => createHmac('sha256', key).update(`${purpose}\u0000${value}`).digest('base64url');
  return {
    issue: (value: string): string => mac(cookieKeys[0]!, value),
    verify: (value: string, presented: unknown): boolean => typeof presented === 'string' && cookieKeys.some((key) => constantTimeEqual(presented, mac(key, value))),
  };
}

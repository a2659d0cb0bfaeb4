import { createHmac, timingSafeEqual } from 'node:crypto';

// The token is a MAC of the interaction's uid under the cookie keys. The uid alone is not secret (it
// is in the URL), but only the browser holding the signed interaction cookie can use that uid, and
// only a page Sesame rendered for it carries the token: a form posted from elsewhere has neither.
function mac(key: string, uid: string): Buffer {
  return createHmac('sha256', key).update(`sesame interaction form ${uid}`).digest();
}

export function interactionCsrfToken(cookieKeys: readonly string[], uid: string): string {
  return mac(cookieKeys[0]!, uid).toString('base64url');
}

/** Accepts a token made under any of the cookie keys, so rotating OIDC_COOKIE_KEYS breaks no open page. */
export function interactionCsrfValid(cookieKeys: readonly string[], uid: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const given = Buffer.from(presented, 'utf8');
  return cookieKeys.some((key) => {
    const expected = Buffer.from(mac(key, uid).toString('base64url'), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

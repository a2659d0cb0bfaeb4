import { csrfTokens } from '../security/csrf-token.ts';

// The token is a MAC of the interaction's uid under the cookie keys. The uid alone is not secret (it
// is in the URL), but only the browser holding the signed interaction cookie can use that uid, and
// only a page Sesame rendered for it carries the token: a form posted from elsewhere has neither.
const PURPOSE = 'interaction-form';

export function interactionCsrfToken(cookieKeys: readonly string[], uid: string): string {
  return csrfTokens(cookieKeys, PURPOSE).issue(uid);
}

/** Accepts a token made under any of the cookie keys, so rotating OIDC_COOKIE_KEYS breaks no open page. */
export function interactionCsrfValid(cookieKeys: readonly string[], uid: string, presented: unknown): boolean {
  return csrfTokens(cookieKeys, PURPOSE).verify(uid, presented);
}

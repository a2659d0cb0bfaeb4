import type { MessageKey } from '../i18n/catalogues.ts';
import { FederatedSignInRefused } from '../services/upstream/federated-person.ts';
import { text, type PageLanguage } from '../pages/layout.ts';
import type { UpstreamSignInStopped } from '../services/upstream/oidc-upstream-sign-in.ts';

/**
 * What a refused upstream or directory sign-in says to the person, in the page's language. The errors carry
 * English messages for logs and API answers; the page picks its text by the error's reason.
 */
export function signInRefusalText(language: PageLanguage, error: UpstreamSignInStopped | FederatedSignInRefused): string {
  const details = { ...error.details };
  if (error instanceof FederatedSignInRefused) {
    const key: MessageKey = error.reason === 'email_domain_not_allowed' && details.email === undefined ? 'federated.email_missing' : `federated.${error.reason}`;
    return text(language, key, details);
  }
  return text(language, `upstream.${error.reason}`, details);
}

import type { MessageKey } from '../i18n/catalogues.ts';
import { html } from './html.ts';
import { layout, text, type PageLanguage } from './layout.ts';

export interface ErrorPageInput {
  title: string;
  message: string;
  /** The protocol error, shown folded away for the application's developer (not translated: it is for them). */
  error?: string | undefined;
  description?: string | undefined;
  language: PageLanguage;
}

export function renderErrorPage(input: ErrorPageInput): string {
  const { language } = input;
  return layout({
    language,
    title: input.title,
    body: html`
<div class="alert alert-error" role="alert">${input.message}</div>
${input.error
  ? html`<details>
<summary>${text(language, 'error.details')}</summary>
<dl>
<dt>error</dt><dd><code>${input.error}</code></dd>
${input.description ? html`<dt>error_description</dt><dd><code>${input.description}</code></dd>` : ''}
</dl>
</details>`
  : ''}`,
  });
}

/** An error page of the sign-in steps whose text is all in the catalogue. */
export function errorPageText(language: PageLanguage, message: MessageKey, title: MessageKey = 'error.title.stopped'): ErrorPageInput {
  return { title: text(language, title), message: text(language, message), language };
}

/** What a person reads for a protocol error they cannot fix themselves. */
export function explainProtocolError(error: string, description: string | undefined, language: PageLanguage): ErrorPageInput {
  const details = description ?? '';
  let message: MessageKey = 'error.generic';
  if (/post_logout_redirect_uri/.test(details)) message = 'error.postLogoutRedirect';
  else if (/redirect_uri/.test(details)) message = 'error.redirect';
  else if (error === 'invalid_client') message = 'error.invalidClient';
  else if (error === 'session_not_found' || error === 'invalid_session') message = 'error.sessionExpired';
  else if (error === 'server_error') message = 'error.server';
  else if (error === 'temporarily_unavailable') message = 'error.unavailable';
  const title: MessageKey = error === 'server_error' ? 'error.title.server' : error === 'temporarily_unavailable' ? 'error.title.unavailable' : 'error.title.stopped';
  return { title: text(language, title), message: text(language, message), error, description, language };
}

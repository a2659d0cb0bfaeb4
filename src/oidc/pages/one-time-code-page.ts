import { html } from '../../pages/html.ts';
import { layout, markup, text, type PageLanguage } from '../../pages/layout.ts';
import { waitText } from './login-page.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-controls.ts';

export interface OneTimeCodePageInput {
  uid: string;
  csrfToken: string;
  ticket: string;
  clientName: string;
  failed?: boolean | undefined;
  retryAfterSeconds?: number | undefined;
  /** The person has a passkey: offer it next to the code. */
  passkey?: boolean | undefined;
  passkeyFailed?: boolean | undefined;
  language: PageLanguage;
}

/** The second step of signing in, for a person with an authenticator: the code (or a recovery code) in `otp`. */
export function renderOneTimeCodePage(input: OneTimeCodePageInput): string {
  const uid = encodeURIComponent(input.uid);
  const { language } = input;
  const invalid = input.failed ? html` aria-describedby="otp-error" aria-invalid="true"` : '';
  return layout({
    language,
    ...(input.passkey ? { scripts: PASSKEY_SCRIPTS } : {}),
    title: text(language, 'otp.title'),
    subtitle: markup(language, 'login.subtitle', { client: html`<strong>${input.clientName}</strong>` }),
    body: html`
${input.failed ? html`<div class="alert alert-error" role="alert" id="otp-error">${text(language, 'otp.failed')}</div>` : ''}
${input.retryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="otp-error">${text(language, 'login.tooMany', { wait: waitText(language, input.retryAfterSeconds) })}</div>` : ''}
${input.passkeyFailed ? html`<div class="alert alert-error" role="alert" id="otp-error">${text(language, 'otp.passkey.failed')}</div>` : ''}
<form class="stack" method="post" action="/interaction/${uid}/otp">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<input type="hidden" name="ticket" value="${input.ticket}">
<div class="field">
<label for="otp">${text(language, 'otp.label')}</label>
<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64"${invalid} autofocus>
</div>
<button class="button button-primary" type="submit">${text(language, 'otp.submit')}</button>
</form>
${input.passkey ? passkeyForm({ mode: 'sign-in', action: `/interaction/${uid}/passkey`, optionsAction: `/interaction/${uid}/passkey/options`, csrfToken: input.csrfToken, ticket: input.ticket, label: text(language, 'otp.passkey.button'), failedText: text(language, 'passkey.failed') }) : ''}
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">${text(language, 'login.cancel', { client: input.clientName })}</button>
</form>`,
  });
}

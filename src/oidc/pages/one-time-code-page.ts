import { html } from './html.ts';
import { layout } from './layout.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-controls.ts';

const PASSKEY_TEXT = {
  button: 'Use a passkey instead',
  failed: 'That passkey did not work. Try it again, or enter a code.',
};

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
}

/** The second step of signing in, for a person with an authenticator: the code (or a recovery code) in `otp`. */
export function renderOneTimeCodePage(input: OneTimeCodePageInput): string {
  const uid = encodeURIComponent(input.uid);
  const invalid = input.failed ? html` aria-describedby="otp-error" aria-invalid="true"` : '';
  return layout({
    ...(input.passkey ? { scripts: PASSKEY_SCRIPTS } : {}),
    title: 'Enter your one-time code',
    subtitle: html`to continue to <strong>${input.clientName}</strong>`,
    body: html`
${input.failed ? html`<div class="alert alert-error" role="alert" id="otp-error">That code did not work. Enter the code your authenticator app shows now, or an unused recovery code.</div>` : ''}
${input.retryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="otp-error">Too many failed sign-in attempts. Wait ${String(input.retryAfterSeconds)} seconds, then try again.</div>` : ''}
${input.passkeyFailed ? html`<div class="alert alert-error" role="alert" id="otp-error">${PASSKEY_TEXT.failed}</div>` : ''}
<form class="stack" method="post" action="/interaction/${uid}/otp">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<input type="hidden" name="ticket" value="${input.ticket}">
<div class="field">
<label for="otp">Code from your authenticator app, or a recovery code</label>
<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64"${invalid} autofocus>
</div>
<button class="button button-primary" type="submit">Verify and sign in</button>
</form>
${input.passkey ? passkeyForm({ mode: 'sign-in', action: `/interaction/${uid}/passkey`, optionsAction: `/interaction/${uid}/passkey/options`, csrfToken: input.csrfToken, ticket: input.ticket, label: PASSKEY_TEXT.button }) : ''}
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">Cancel and go back to ${input.clientName}</button>
</form>`,
  });
}

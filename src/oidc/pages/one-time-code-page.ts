import { html } from './html.ts';
import { layout } from './layout.ts';

export interface OneTimeCodePageInput {
  uid: string;
  csrfToken: string;
  ticket: string;
  clientName: string;
  failed?: boolean | undefined;
  retryAfterSeconds?: number | undefined;
}

/** The second step of signing in, for a person with an authenticator: the code (or a recovery code) in `otp`. */
export function renderOneTimeCodePage(input: OneTimeCodePageInput): string {
  const uid = encodeURIComponent(input.uid);
  const invalid = input.failed ? html` aria-describedby="otp-error" aria-invalid="true"` : '';
  return layout({
    title: 'Enter your one-time code',
    subtitle: html`to continue to <strong>${input.clientName}</strong>`,
    body: html`
${input.failed ? html`<div class="alert alert-error" role="alert" id="otp-error">That code did not work. Enter the code your authenticator app shows now, or an unused recovery code.</div>` : ''}
${input.retryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="otp-error">Too many failed sign-in attempts. Wait ${String(input.retryAfterSeconds)} seconds, then try again.</div>` : ''}
<form class="stack" method="post" action="/interaction/${uid}/otp">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<input type="hidden" name="ticket" value="${input.ticket}">
<div class="field">
<label for="otp">Code from your authenticator app, or a recovery code</label>
<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64"${invalid} autofocus>
</div>
<button class="button button-primary" type="submit">Verify and sign in</button>
</form>
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">Cancel and go back to ${input.clientName}</button>
</form>`,
  });
}

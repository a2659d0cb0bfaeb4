import { html, type SafeHtml } from '../../pages/html.ts';

/** What a page with passkey buttons loads, in order: the WebAuthn helper, then the buttons' script. */
export const PASSKEY_SCRIPTS = ['/assets/simplewebauthn-browser.js', '/assets/passkey.js'] as const;

export interface PasskeyFormInput {
  /** `sign-in` asks the browser for an assertion, `register` for a new credential. */
  mode: 'sign-in' | 'register';
  /** Where the answer is posted (a form POST, so the sign-in continues like any other). */
  action: string;
  /** Where the script gets fresh WebAuthn options (POST with the same csrf and ticket). */
  optionsAction: string;
  csrfToken: string;
  ticket?: string | undefined;
  label: string;
  /** Shown when the browser's passkey prompt fails or is dismissed. */
  failedText: string;
  /** The login page's form also answers the browser's autofill prompt (conditional mediation). */
  autofill?: boolean;
}

/** A passkey button: hidden until the script finds WebAuthn, so a page without script never shows a dead control. */
export function passkeyForm(input: PasskeyFormInput): SafeHtml {
  return html`<form class="stack passkey-form" method="post" action="${input.action}" data-passkey="${input.mode}" data-options="${input.optionsAction}"${input.autofill ? html` data-autofill="true"` : ''} data-failed="${input.failedText}" hidden>
<input type="hidden" name="csrf" value="${input.csrfToken}">
${input.ticket ? html`<input type="hidden" name="ticket" value="${input.ticket}">` : ''}
<input type="hidden" name="credential" value="">
<div class="alert alert-error" role="alert" data-passkey-error hidden></div>
<button class="button" type="submit">${input.label}</button>
</form>`;
}

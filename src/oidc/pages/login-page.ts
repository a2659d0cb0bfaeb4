import { html } from './html.ts';
import { layout } from './layout.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-controls.ts';

const PASSKEY_TEXT = {
  button: 'Sign in with a passkey',
  failed: 'That passkey did not sign you in. Try again, or sign in with your account and password.',
  notVerified: 'Your passkey did not verify you (no PIN or biometrics), so it cannot sign you in alone. Sign in with your password; Sesame then asks for the passkey.',
};

export interface LoginPageInput {
  uid: string;
  csrfToken: string;
  clientName: string;
  account?: string | undefined;
  failed?: boolean | undefined;
  /** Set when sign-in is refused for too many failures: how long to wait. */
  retryAfterSeconds?: number | undefined;
  /** A passkey sign-in that failed, or whose authenticator did not verify the person. */
  passkeyProblem?: 'failed' | 'not_verified' | undefined;
}

const waitText = (seconds: number) => (seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

/** The one message for every failed sign-in: it never says whether the account or the password was wrong. */
export const LOGIN_FAILED_MESSAGE = 'Wrong account or password.';

export function renderLoginPage(input: LoginPageInput): string {
  const uid = encodeURIComponent(input.uid);
  return layout({
    scripts: PASSKEY_SCRIPTS,
    title: 'Sign in',
    subtitle: html`to continue to <strong>${input.clientName}</strong>`,
    body: html`
${input.failed ? html`<div class="alert alert-error" role="alert" id="login-error">${LOGIN_FAILED_MESSAGE} Check both and try again.</div>` : ''}
${input.retryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">Too many failed sign-in attempts. Wait ${waitText(input.retryAfterSeconds)}, then try again.</div>` : ''}
${input.passkeyProblem ? html`<div class="alert alert-error" role="alert" id="passkey-error">${input.passkeyProblem === 'failed' ? PASSKEY_TEXT.failed : PASSKEY_TEXT.notVerified}</div>` : ''}
<form class="stack" method="post" action="/interaction/${uid}/login">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<div class="field">
<label for="account">Account</label>
<input id="account" name="account" type="text" autocomplete="username webauthn" autocapitalize="none" spellcheck="false" required maxlength="256"
 value="${input.account ?? ''}"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''} autofocus>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''}>
</div>
<button class="button button-primary" type="submit">Sign in</button>
</form>
${passkeyForm({ mode: 'sign-in', action: `/interaction/${uid}/passkey`, optionsAction: `/interaction/${uid}/passkey/options`, csrfToken: input.csrfToken, label: PASSKEY_TEXT.button, autofill: true })}
<p class="secondary-action"><a href="/account/forgot">Forgot your password?</a></p>
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">Cancel and go back to ${input.clientName}</button>
</form>`,
  });
}

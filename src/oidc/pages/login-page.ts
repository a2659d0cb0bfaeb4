import { html } from './html.ts';
import { layout } from './layout.ts';

const TEXT = {
  directoryUnavailable: (wait: string) => `Your organisation's directory, which checks this account's password, is not answering. Wait ${wait}, then try again; accounts kept in Sesame itself still sign in.`,
  otherWays: 'Or use another provider:',
  continueWith: (displayName: string) => `Continue with ${displayName}`,
} as const;

export interface LoginPageInput {
  uid: string;
  csrfToken: string;
  clientName: string;
  account?: string | undefined;
  failed?: boolean | undefined;
  /** Set when sign-in is refused for too many failures: how long to wait. */
  retryAfterSeconds?: number | undefined;
  /** Set when the LDAP directory that checks this account did not answer: how long to wait. */
  directoryRetryAfterSeconds?: number | undefined;
  /** Set when the password was right and Sesame still refuses the sign-in (a directory person it cannot link): why. */
  refusal?: string | undefined;
  /** The enabled upstream OpenID Connect providers: one "Continue with" control each. */
  upstreamProviders?: readonly { name: string; displayName: string }[] | undefined;
}

const waitText = (seconds: number) => (seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

/** The one message for every failed sign-in: it never says whether the account or the password was wrong. */
export const LOGIN_FAILED_MESSAGE = 'Wrong account or password.';

export function renderLoginPage(input: LoginPageInput): string {
  const uid = encodeURIComponent(input.uid);
  return layout({
    title: 'Sign in',
    subtitle: html`to continue to <strong>${input.clientName}</strong>`,
    body: html`
${input.failed ? html`<div class="alert alert-error" role="alert" id="login-error">${LOGIN_FAILED_MESSAGE} Check both and try again.</div>` : ''}
${input.retryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">Too many failed sign-in attempts. Wait ${waitText(input.retryAfterSeconds)}, then try again.</div>` : ''}
${input.refusal !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">${input.refusal}</div>` : ''}
${input.directoryRetryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">${TEXT.directoryUnavailable(waitText(input.directoryRetryAfterSeconds))}</div>` : ''}
<form class="stack" method="post" action="/interaction/${uid}/login">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<div class="field">
<label for="account">Account</label>
<input id="account" name="account" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="256"
 value="${input.account ?? ''}"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''} autofocus>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''}>
</div>
<button class="button button-primary" type="submit">Sign in</button>
</form>
${input.upstreamProviders && input.upstreamProviders.length > 0
  ? html`<section class="upstream-sign-in stack" aria-labelledby="upstream-heading">
<p id="upstream-heading" class="upstream-heading">${TEXT.otherWays}</p>
${input.upstreamProviders.map((provider) => html`<form method="post" action="/interaction/${uid}/upstream/${encodeURIComponent(provider.name)}">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button upstream-button" type="submit">${TEXT.continueWith(provider.displayName)}</button>
</form>`)}
</section>`
  : ''}
<p class="secondary-action"><a href="/account/forgot">Forgot your password?</a></p>
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">Cancel and go back to ${input.clientName}</button>
</form>`,
  });
}

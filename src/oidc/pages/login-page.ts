import { formatNumber } from '../../i18n/format.ts';
import { html } from '../../pages/html.ts';
import { layout, markup, text, type PageLanguage } from '../../pages/layout.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-controls.ts';

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
  language: PageLanguage;
  /** Set when the LDAP directory that checks this account did not answer: how long to wait. */
  directoryRetryAfterSeconds?: number | undefined;
  /** Set when the password was right and Sesame still refuses the sign-in (a directory person it cannot link): why. */
  refusal?: string | undefined;
  /** The enabled upstream OpenID Connect providers: one "Continue with" control each. */
  upstreamProviders?: readonly { name: string; displayName: string }[] | undefined;
}

/** "30 seconds" or "2 minutes", in the page's language. */
export function waitText(language: PageLanguage, seconds: number): string {
  return seconds < 90
    ? text(language, 'page.duration.seconds', { count: formatNumber(language.locale, seconds) })
    : text(language, 'page.duration.minutes', { count: formatNumber(language.locale, Math.ceil(seconds / 60)) });
}

export function renderLoginPage(input: LoginPageInput): string {
  const uid = encodeURIComponent(input.uid);
  const { language } = input;
  const client = html`<strong>${input.clientName}</strong>`;
  return layout({
    language,
    scripts: PASSKEY_SCRIPTS,
    title: text(language, 'login.title'),
    subtitle: markup(language, 'login.subtitle', { client }),
    body: html`
${input.failed ? html`<div class="alert alert-error" role="alert" id="login-error">${text(language, 'login.failed')}</div>` : ''}
${input.retryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">${text(language, 'login.tooMany', { wait: waitText(language, input.retryAfterSeconds) })}</div>` : ''}
${input.passkeyProblem ? html`<div class="alert alert-error" role="alert" id="passkey-error">${text(language, input.passkeyProblem === 'failed' ? 'login.passkey.failed' : 'login.passkey.notVerified')}</div>` : ''}
${input.refusal !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">${input.refusal}</div>` : ''}
${input.directoryRetryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">${text(language, 'login.directoryUnavailable', { wait: waitText(language, input.directoryRetryAfterSeconds) })}</div>` : ''}
<form class="stack" method="post" action="/interaction/${uid}/login">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<div class="field">
<label for="account">${text(language, 'login.account')}</label>
<input id="account" name="account" type="text" autocomplete="username webauthn" autocapitalize="none" spellcheck="false" required maxlength="256"
 value="${input.account ?? ''}"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''} autofocus>
</div>
<div class="field">
<label for="password">${text(language, 'login.password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''}>
</div>
<button class="button button-primary" type="submit">${text(language, 'login.submit')}</button>
</form>
${passkeyForm({ mode: 'sign-in', action: `/interaction/${uid}/passkey`, optionsAction: `/interaction/${uid}/passkey/options`, csrfToken: input.csrfToken, label: text(language, 'login.passkey.button'), failedText: text(language, 'passkey.failed'), autofill: true })}
${input.upstreamProviders && input.upstreamProviders.length > 0
  ? html`<section class="upstream-sign-in stack" aria-labelledby="upstream-heading">
<p id="upstream-heading" class="upstream-heading">${text(language, 'login.otherWays')}</p>
${input.upstreamProviders.map((provider) => html`<form method="post" action="/interaction/${uid}/upstream/${encodeURIComponent(provider.name)}">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button upstream-button" type="submit">${text(language, 'login.continueWith', { provider: provider.displayName })}</button>
</form>`)}
</section>`
  : ''}
<p class="secondary-action"><a href="/account/forgot${language.locale === 'en' ? '' : `?lang=${language.locale}`}">${text(language, 'login.forgot')}</a></p>
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">${text(language, 'login.cancel', { client: input.clientName })}</button>
</form>`,
  });
}

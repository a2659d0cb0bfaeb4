import { formatNumber } from '../../i18n/format.ts';
import { html } from './html.ts';
import { layout, markup, text, type PageLanguage } from './layout.ts';

export interface LoginPageInput {
  uid: string;
  csrfToken: string;
  clientName: string;
  account?: string | undefined;
  failed?: boolean | undefined;
  /** Set when sign-in is refused for too many failures: how long to wait. */
  retryAfterSeconds?: number | undefined;
  language: PageLanguage;
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
    title: text(language, 'login.title'),
    subtitle: markup(language, 'login.subtitle', { client }),
    body: html`
${input.failed ? html`<div class="alert alert-error" role="alert" id="login-error">${text(language, 'login.failed')}</div>` : ''}
${input.retryAfterSeconds !== undefined ? html`<div class="alert alert-error" role="alert" id="login-error">${text(language, 'login.tooMany', { wait: waitText(language, input.retryAfterSeconds) })}</div>` : ''}
<form class="stack" method="post" action="/interaction/${uid}/login">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<div class="field">
<label for="account">${text(language, 'login.account')}</label>
<input id="account" name="account" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="256"
 value="${input.account ?? ''}"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''} autofocus>
</div>
<div class="field">
<label for="password">${text(language, 'login.password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${input.failed ? html` aria-describedby="login-error" aria-invalid="true"` : ''}>
</div>
<button class="button button-primary" type="submit">${text(language, 'login.submit')}</button>
</form>
<p class="secondary-action"><a href="/account/forgot${language.locale === 'en' ? '' : `?lang=${language.locale}`}">${text(language, 'login.forgot')}</a></p>
<form class="secondary-action" method="post" action="/interaction/${uid}/abort">
<input type="hidden" name="csrf" value="${input.csrfToken}">
<button class="button button-quiet" type="submit">${text(language, 'login.cancel', { client: input.clientName })}</button>
</form>`,
  });
}

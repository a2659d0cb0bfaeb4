import type { DeadLinkReason } from '../domain/account-links.ts';
import { PASSWORD_RULES } from '../domain/passwords.ts';
import { formatNumber } from '../i18n/format.ts';
import { html, type SafeHtml } from '../pages/html.ts';
import { layout, markup, text, type PageLanguage } from '../pages/layout.ts';

// The pages a mailed link opens, and "Forgot your password?". Server-rendered forms without script.

const CONSOLE_PATH = '/console';

const signInLink = (language: PageLanguage) => html`<p class="secondary-action"><a href="${CONSOLE_PATH}">${text(language, 'account.signInLink')}</a></p>`;

function alert(kind: 'error' | 'success' | 'info', message: string | SafeHtml, id?: string): SafeHtml {
  return html`<div class="alert alert-${kind}" role="${kind === 'error' ? 'alert' : 'status'}"${id ? html` id="${id}"` : ''}>${message}</div>`;
}

/** What to do next on a dead link's page, by the kind of link. */
export type DeadLinkKind = 'invitation' | 'reset' | 'verification';

function nextStep(language: PageLanguage, kind: DeadLinkKind): SafeHtml {
  const signIn = html`<a href="${CONSOLE_PATH}">${text(language, 'account.next.signIn')}</a>`;
  if (kind === 'invitation') return html`<p>${markup(language, 'account.next.invitation', { signIn })}</p>`;
  if (kind === 'reset') {
    const newLink = html`<a href="/account/forgot">${text(language, 'account.next.resetLink')}</a>`;
    return html`<p>${markup(language, 'account.next.reset', { newLink, signIn })}</p>`;
  }
  return html`<p>${markup(language, 'account.next.verification', { console: html`<a href="${CONSOLE_PATH}">${text(language, 'account.next.console')}</a>` })}</p>`;
}

export function renderDeadLinkPage(reason: DeadLinkReason, kind: DeadLinkKind, language: PageLanguage): string {
  return layout({
    language,
    title: text(language, `account.dead.${reason}.title`),
    body: html`${alert('error', text(language, `account.dead.${reason}.message`))}${nextStep(language, kind)}`,
  });
}

export interface SetPasswordPageInput {
  purpose: 'invitation' | 'reset';
  /** The form posts back to the page's own address (the link). */
  action: string;
  account: string;
  displayName: string;
  /** The length rule the refused password broke, or another rule in its own (English) words. */
  problem?: 'too_short' | 'too_long' | string | undefined;
  language: PageLanguage;
}

function passwordProblemText(language: PageLanguage, problem: string): string {
  if (problem === 'too_short') return text(language, 'account.setPassword.tooShort', { count: formatNumber(language.locale, PASSWORD_RULES.minLength) });
  if (problem === 'too_long') return text(language, 'account.setPassword.tooLong', { count: formatNumber(language.locale, PASSWORD_RULES.maxLength) });
  return text(language, 'account.setPassword.problem', { problem });
}

/** The invitation's and the reset's form: one input, `newPassword`. */
export function renderSetPasswordPage(input: SetPasswordPageInput): string {
  const invitation = input.purpose === 'invitation';
  const { language } = input;
  const holder = html`<strong>${input.account}</strong>${input.displayName && input.displayName !== input.account ? html` (${input.displayName})` : ''}`;
  return layout({
    language,
    title: text(language, invitation ? 'account.setPassword.invitationTitle' : 'account.setPassword.resetTitle'),
    subtitle: markup(language, 'account.setPassword.for', { account: holder }),
    body: html`
${input.problem ? alert('error', passwordProblemText(language, input.problem), 'password-error') : ''}
${invitation ? '' : html`<p>${text(language, 'account.setPassword.signsOut')}</p>`}
<form class="stack" method="post" action="${input.action}">
<input type="text" name="account" value="${input.account}" autocomplete="username" hidden readonly>
<div class="field">
<label for="newPassword">${text(language, 'account.setPassword.label')}</label>
<input id="newPassword" name="newPassword" type="password" autocomplete="new-password" required minlength="${PASSWORD_RULES.minLength}" maxlength="${PASSWORD_RULES.maxLength}"
 aria-describedby="${input.problem ? 'password-error ' : ''}password-hint"${input.problem ? html` aria-invalid="true"` : ''} autofocus>
<p class="field-hint" id="password-hint">${text(language, 'account.setPassword.hint', { count: formatNumber(language.locale, PASSWORD_RULES.minLength) })}</p>
</div>
<button class="button button-primary" type="submit">${text(language, invitation ? 'account.setPassword.invitationSubmit' : 'account.setPassword.resetSubmit')}</button>
</form>`,
  });
}

export function renderPasswordSetPage(purpose: 'invitation' | 'reset', account: string, language: PageLanguage): string {
  const invitation = purpose === 'invitation';
  return layout({
    language,
    title: text(language, invitation ? 'account.passwordSet.invitationTitle' : 'account.passwordSet.resetTitle'),
    body: html`${alert('success', text(language, invitation ? 'account.passwordSet.invitation' : 'account.passwordSet.reset', { account }))}${signInLink(language)}`,
  });
}

export interface ForgotPageInput {
  mailEnabled: boolean;
  account?: string | undefined;
  /** After a request: the one answer, whether or not the account exists. */
  sent?: boolean | undefined;
  missingAccount?: boolean | undefined;
  retryAfterSeconds?: number | undefined;
  language: PageLanguage;
}

export function renderForgotPage(input: ForgotPageInput): string {
  const { language } = input;
  if (!input.mailEnabled) {
    return layout({
      language,
      title: text(language, 'account.forgot.title'),
      body: html`${alert('info', text(language, 'account.forgot.noMail'))}${signInLink(language)}`,
    });
  }
  if (input.sent) {
    return layout({ language, title: text(language, 'account.forgot.sentTitle'), body: html`${alert('success', text(language, 'account.forgot.sent'))}${signInLink(language)}` });
  }
  const problem = input.missingAccount
    ? text(language, 'account.forgot.missingAccount')
    : input.retryAfterSeconds !== undefined
      ? text(language, 'account.forgot.tooMany', { minutes: formatNumber(language.locale, Math.ceil(input.retryAfterSeconds / 60)) })
      : undefined;
  return layout({
    language,
    title: text(language, 'account.forgot.title'),
    subtitle: text(language, 'account.forgot.subtitle'),
    body: html`
${problem ? alert('error', problem, 'forgot-error') : ''}
<form class="stack" method="post" action="/account/forgot">
<div class="field">
<label for="account">${text(language, 'account.forgot.account')}</label>
<input id="account" name="account" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="256" value="${input.account ?? ''}"${problem ? html` aria-describedby="forgot-error" aria-invalid="true"` : ''} autofocus>
</div>
<button class="button button-primary" type="submit">${text(language, 'account.forgot.submit')}</button>
</form>
${signInLink(language)}`,
  });
}

export function renderVerifyEmailPage(input: { action: string; account: string; email: string; language: PageLanguage }): string {
  const { language } = input;
  return layout({
    language,
    title: text(language, 'account.verify.title'),
    body: html`
<p>${markup(language, 'account.verify.question', { email: html`<strong>${input.email}</strong>`, account: html`<strong>${input.account}</strong>` })}</p>
<form class="stack" method="post" action="${input.action}">
<button class="button button-primary" type="submit">${text(language, 'account.verify.submit')}</button>
</form>`,
  });
}

export function renderEmailVerifiedPage(email: string, language: PageLanguage): string {
  return layout({ language, title: text(language, 'account.verified.title'), body: html`${alert('success', text(language, 'account.verified.message', { email }))}${signInLink(language)}` });
}

/** A verification link whose address another account holds verified: nothing changed (409). */
export function renderAddressTakenPage(input: { email: string; account: string; language: PageLanguage }): string {
  const { language } = input;
  return layout({
    language,
    title: text(language, 'account.verifyTaken.title'),
    body: html`${alert('error', text(language, 'account.verifyTaken.message', { email: input.email, account: input.account }))}${signInLink(language)}`,
  });
}

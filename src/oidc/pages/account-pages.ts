import type { DeadLinkReason } from '../../domain/account-links.ts';
import { PASSWORD_RULES } from '../../domain/passwords.ts';
import { html, type SafeHtml } from './html.ts';
import { layout } from './layout.ts';

// The pages a mailed link opens, and "Forgot your password?". Server-rendered forms without script.

const CONSOLE_PATH = '/console';

const signInLink = html`<p class="secondary-action"><a href="${CONSOLE_PATH}">Go to the Sesame console to sign in</a></p>`;

function alert(kind: 'error' | 'success' | 'info', message: string | SafeHtml, id?: string): SafeHtml {
  return html`<div class="alert alert-${kind}" role="${kind === 'error' ? 'alert' : 'status'}"${id ? html` id="${id}"` : ''}>${message}</div>`;
}

const DEAD_LINK_TEXT: Record<DeadLinkReason, { title: string; message: string }> = {
  unknown: { title: 'This link does not work', message: 'Sesame does not know this link. Check that you opened the whole address from the mail, or ask for a new link.' },
  used: { title: 'This link was already used', message: 'Each link works only once, and this one has been used. If you still need to, ask for a new link.' },
  expired: { title: 'This link has expired', message: 'The link is too old to use. Ask for a new one.' },
  superseded: { title: 'This link was replaced', message: 'A newer link was sent after this one, so this one no longer works. Use the link in the most recent mail.' },
  password_changed: { title: 'This link no longer works', message: 'The account’s password was changed after this link was sent, so the link stopped working. Ask for a new one if you still need it.' },
};

/** What to do next on a dead link's page, by the kind of link. */
export type DeadLinkKind = 'invitation' | 'reset' | 'verification';

const NEXT_STEP: Record<DeadLinkKind, SafeHtml> = {
  invitation: html`<p>For a new invitation, ask your administrator. If you already chose your password, <a href="${CONSOLE_PATH}">sign in</a>.</p>`,
  reset: html`<p><a href="/account/forgot">Ask for a new password reset link</a>, or <a href="${CONSOLE_PATH}">sign in</a>.</p>`,
  verification: html`<p>To get a new verification link, enter your address again under My account in the <a href="${CONSOLE_PATH}">Sesame console</a>.</p>`,
};

export function renderDeadLinkPage(reason: DeadLinkReason, kind: DeadLinkKind): string {
  const text = DEAD_LINK_TEXT[reason];
  return layout({ title: text.title, body: html`${alert('error', text.message)}${NEXT_STEP[kind]}` });
}

export interface SetPasswordPageInput {
  purpose: 'invitation' | 'reset';
  /** The form posts back to the page's own address (the link). */
  action: string;
  account: string;
  displayName: string;
  problem?: string | undefined;
}

/** The invitation's and the reset's form: one input, `newPassword`. */
export function renderSetPasswordPage(input: SetPasswordPageInput): string {
  const invitation = input.purpose === 'invitation';
  return layout({
    title: invitation ? 'Choose your password' : 'Choose a new password',
    subtitle: html`for <strong>${input.account}</strong>${input.displayName && input.displayName !== input.account ? html` (${input.displayName})` : ''}`,
    body: html`
${input.problem ? alert('error', `The new password ${input.problem}.`, 'password-error') : ''}
${invitation ? '' : html`<p>Setting a new password signs this account out everywhere.</p>`}
<form class="stack" method="post" action="${input.action}">
<input type="text" name="account" value="${input.account}" autocomplete="username" hidden readonly>
<div class="field">
<label for="newPassword">New password</label>
<input id="newPassword" name="newPassword" type="password" autocomplete="new-password" required minlength="${PASSWORD_RULES.minLength}" maxlength="${PASSWORD_RULES.maxLength}"
 aria-describedby="${input.problem ? 'password-error ' : ''}password-hint"${input.problem ? html` aria-invalid="true"` : ''} autofocus>
<p class="field-hint" id="password-hint">At least ${PASSWORD_RULES.minLength} characters.</p>
</div>
<button class="button button-primary" type="submit">${invitation ? 'Set password' : 'Change password'}</button>
</form>`,
  });
}

export function renderPasswordSetPage(purpose: 'invitation' | 'reset', account: string): string {
  return layout({
    title: purpose === 'invitation' ? 'Your password is set' : 'Your password is changed',
    body: html`${alert('success', purpose === 'invitation' ? `You can now sign in as ${account} with your new password.` : `Every session of ${account} was signed out. Sign in again with your new password.`)}${signInLink}`,
  });
}

export interface ForgotPageInput {
  mailEnabled: boolean;
  account?: string | undefined;
  /** After a request: the one answer, whether or not the account exists. */
  sent?: boolean | undefined;
  problem?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

/** The answer to every reset request, whichever account was named. */
export const RESET_REQUESTED_MESSAGE = 'If that account exists and has an email address, a link to choose a new password is on its way. It works for 30 minutes.';

export function renderForgotPage(input: ForgotPageInput): string {
  if (!input.mailEnabled) {
    return layout({
      title: 'Forgot your password?',
      body: html`${alert('info', 'This Sesame sends no mail, so it cannot send a password reset link. Ask your administrator to set a new password for you.')}${signInLink}`,
    });
  }
  if (input.sent) {
    return layout({ title: 'Check your mail', body: html`${alert('success', RESET_REQUESTED_MESSAGE)}${signInLink}` });
  }
  const problem = input.problem ?? (input.retryAfterSeconds !== undefined ? `Too many requests. Wait ${Math.ceil(input.retryAfterSeconds / 60)} minutes, then try again.` : undefined);
  return layout({
    title: 'Forgot your password?',
    subtitle: 'Enter your account name and Sesame mails you a link to choose a new password.',
    body: html`
${problem ? alert('error', problem, 'forgot-error') : ''}
<form class="stack" method="post" action="/account/forgot">
<div class="field">
<label for="account">Account</label>
<input id="account" name="account" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="256" value="${input.account ?? ''}"${problem ? html` aria-describedby="forgot-error" aria-invalid="true"` : ''} autofocus>
</div>
<button class="button button-primary" type="submit">Send reset link</button>
</form>
${signInLink}`,
  });
}

export function renderVerifyEmailPage(input: { action: string; account: string; email: string }): string {
  return layout({
    title: 'Confirm your email address',
    body: html`
<p>Confirm that <strong>${input.email}</strong> is the email address of the Sesame account <strong>${input.account}</strong>.</p>
<form class="stack" method="post" action="${input.action}">
<button class="button button-primary" type="submit">Confirm address</button>
</form>`,
  });
}

export function renderEmailVerifiedPage(email: string): string {
  return layout({ title: 'Email address confirmed', body: html`${alert('success', `${email} is now your confirmed email address.`)}${signInLink}` });
}

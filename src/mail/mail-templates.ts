import { ACCOUNT_LINK_PATHS, type SecurityNoticeKind } from '../domain/account-links.ts';
import type { ReadyMail } from '../services/mail/outgoing-mail.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface MailContent {
  subject: string;
  /** Paragraphs of plain text; the link, when there is one, goes after the first. */
  paragraphs: string[];
  action?: { label: string; url: string };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function validFor(validForMs: number): string {
  const minutes = Math.max(1, Math.round(validForMs / 60_000));
  return minutes < 120 ? `${minutes} minutes` : `${Math.round(minutes / 60)} hours`;
}

const NOTICES: Record<SecurityNoticeKind, { subject: string; body: string }> = {
  password_changed: { subject: 'Your Sesame password was changed', body: 'The password of your Sesame account {account} was just changed, and every session of the account was signed out.' },
  second_factor_changed: { subject: 'Your Sesame sign-in factors changed', body: 'The second factors (authenticator app, passkeys or recovery codes) of your Sesame account {account} were just changed.' },
  assistant_connected: { subject: 'An assistant was connected to your Sesame account', body: 'An assistant was just allowed to act for your Sesame account {account}. You can see and revoke it under My account in the Sesame console.' },
};

const IF_NOT_YOU = 'If this was not you, contact your administrator at once.';

function contentOf(mail: ReadyMail, issuer: string): MailContent {
  const name = text(mail.params.displayName) || text(mail.params.account);
  const account = text(mail.params.account);
  const link = mail.link;
  const url = link ? `${issuer}${ACCOUNT_LINK_PATHS[link.purpose]}${link.token}` : '';
  const validity = link ? validFor(link.validForMs) : '';
  switch (mail.kind) {
    case 'invitation':
      return {
        subject: 'You are invited to Sesame',
        paragraphs: [`Hello ${name},`, `An administrator made a Sesame account for you: ${account}. Choose your password to start using it:`, `The link works once, for ${validity}.`, 'If you did not expect this, ignore this mail.'],
        action: { label: 'Choose your password', url },
      };
    case 'password_reset':
      return {
        subject: 'Reset your Sesame password',
        paragraphs: [`Hello ${name},`, `Someone asked to reset the password of your Sesame account ${account}. To choose a new one, open:`, `The link works once, for ${validity}. Setting a new password signs the account out everywhere.`, 'If you did not ask for this, ignore this mail: your password stays as it is.'],
        action: { label: 'Choose a new password', url },
      };
    case 'email_verification':
      return {
        subject: 'Confirm your email address for Sesame',
        paragraphs: [`Hello ${name},`, `Confirm that this address belongs to your Sesame account ${account}:`, `The link works once, for ${validity}.`, 'If you did not ask for this, ignore this mail.'],
        action: { label: 'Confirm this address', url },
      };
    case 'security_notice': {
      const notice = NOTICES[text(mail.params.notice) as SecurityNoticeKind] ?? NOTICES.password_changed;
      return { subject: notice.subject, paragraphs: [`Hello ${name},`, notice.body.replace('{account}', account), IF_NOT_YOU] };
    }
  }
}

/** Plain text and simple HTML of one mail: no remote images, no scripts, every value escaped. */
export function renderMail(mail: ReadyMail, issuer: string): RenderedMail {
  const content = contentOf(mail, issuer);
  const [first = '', ...rest] = content.paragraphs;
  const textParts = content.action ? [first, rest[0] ?? '', content.action.url, ...rest.slice(1)] : [first, ...rest];
  const paragraphs = (items: string[]) => items.map((item) => `<p>${escapeHtml(item)}</p>`).join('\n');
  const action = content.action
    ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p>\n<p style="font-size:13px;color:#555555">Or copy this address into your browser:<br>${escapeHtml(content.action.url)}</p>`
    : '';
  const body = content.action ? `${paragraphs([first, rest[0] ?? ''])}\n${action}\n${paragraphs(rest.slice(1))}` : paragraphs([first, ...rest]);
  return {
    subject: content.subject,
    text: `${textParts.filter((part) => part !== '').join('\n\n')}\n\n-- \nSesame\n`,
    html: `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>\n<body style="font-family:sans-serif;line-height:1.5;color:#111111">\n${body}\n<p style="font-size:13px;color:#555555">Sesame</p>\n</body>\n</html>\n`,
  };
}

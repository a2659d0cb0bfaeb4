import { ACCOUNT_LINK_PATHS, SECURITY_NOTICE_KINDS, type SecurityNoticeKind } from '../domain/account-links.ts';
import { t, type MessageKey, type MessageParams } from '../i18n/catalogues.ts';
import { formatNumber } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';
import type { ReadyMail } from '../services/shared/mail/outgoing-mail.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface MailContent {
  subject: string;
  /** Paragraphs of plain text; the link, when there is one, goes after the second. */
  paragraphs: string[];
  action?: { label: string; url: string };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function validFor(locale: Locale, validForMs: number): string {
  const minutes = Math.max(1, Math.round(validForMs / 60_000));
  return minutes < 120 ? t(locale, 'mail.minutes', { count: formatNumber(locale, minutes) }) : t(locale, 'mail.hours', { count: formatNumber(locale, Math.round(minutes / 60)) });
}

const isNotice = (value: unknown): value is SecurityNoticeKind => (SECURITY_NOTICE_KINDS as readonly unknown[]).includes(value);

function contentOf(mail: ReadyMail, issuer: string): MailContent {
  const { locale } = mail;
  const say = (key: MessageKey, params?: MessageParams) => t(locale, key, params);
  const name = text(mail.params.displayName) || text(mail.params.account);
  const account = text(mail.params.account);
  const link = mail.link;
  const url = link ? `${issuer}${ACCOUNT_LINK_PATHS[link.purpose]}${link.token}` : '';
  const validity = say('mail.validFor', { validity: link ? validFor(locale, link.validForMs) : '' });
  const hello = say('mail.hello', { name });
  switch (mail.kind) {
    case 'invitation':
      return {
        subject: say('mail.invitation.subject'),
        paragraphs: [hello, say('mail.invitation.intro', { account }), validity, say('mail.invitation.ignore')],
        action: { label: say('mail.invitation.action'), url },
      };
    case 'password_reset':
      return {
        subject: say('mail.reset.subject'),
        paragraphs: [hello, say('mail.reset.intro', { account }), `${validity} ${say('mail.reset.signsOut')}`, say('mail.reset.ignore')],
        action: { label: say('mail.reset.action'), url },
      };
    case 'email_verification':
      return {
        subject: say('mail.verify.subject'),
        paragraphs: [hello, say('mail.verify.intro', { account }), validity, say('mail.verify.ignore')],
        action: { label: say('mail.verify.action'), url },
      };
    case 'security_notice': {
      const notice = isNotice(mail.params.notice) ? mail.params.notice : 'password_changed';
      return { subject: say(`mail.notice.${notice}.subject`), paragraphs: [hello, say(`mail.notice.${notice}.body`, { account, newEmail: text(mail.params.newEmail) }), say('mail.ifNotYou')] };
    }
  }
}

/** Plain text and simple HTML of one mail, in the mail's language: no remote images, no scripts, every value escaped. */
export function renderMail(mail: ReadyMail, issuer: string): RenderedMail {
  const content = contentOf(mail, issuer);
  const [first = '', ...rest] = content.paragraphs;
  const textParts = content.action ? [first, rest[0] ?? '', content.action.url, ...rest.slice(1)] : [first, ...rest];
  const paragraphs = (items: string[]) => items.map((item) => `<p>${escapeHtml(item)}</p>`).join('\n');
  const action = content.action
    ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p>\n<p style="font-size:13px;color:#555555">${escapeHtml(t(mail.locale, 'mail.orCopy'))}<br>${escapeHtml(content.action.url)}</p>`
    : '';
  const body = content.action ? `${paragraphs([first, rest[0] ?? ''])}\n${action}\n${paragraphs(rest.slice(1))}` : paragraphs([first, ...rest]);
  return {
    subject: content.subject,
    text: `${textParts.filter((part) => part !== '').join('\n\n')}\n\n-- \nSesame\n`,
    html: `<!doctype html>\n<html lang="${mail.locale}">\n<head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>\n<body style="font-family:sans-serif;line-height:1.5;color:#111111">\n${body}\n<p style="font-size:13px;color:#555555">Sesame</p>\n</body>\n</html>\n`,
  };
}

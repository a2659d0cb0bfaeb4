/** What a single-use link sent by mail lets its holder do. */
export type AccountLinkPurpose = 'invitation' | 'password_reset' | 'email_verification';

/** How long each link works after it is made (DESIGN.md section 12). */
export const ACCOUNT_LINK_LIFETIME_MS: Record<AccountLinkPurpose, number> = {
  invitation: 72 * 60 * 60 * 1000,
  password_reset: 30 * 60 * 1000,
  email_verification: 24 * 60 * 60 * 1000,
};

/** A set-password link handed to an administrator (no mail) instead of mailed: 7 days, so it can wait for the person. */
export const SET_PASSWORD_LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * At most this many reset mails go to one account per window, whoever asks: more requests get the same
 * answer and no mail, so strangers can neither flood the inbox nor make the person's own request fail.
 */
export const RESET_MAIL_LIMIT = { perAccount: 3, windowMs: 60 * 60 * 1000 } as const;

/** The path under the issuer that each link opens; the token follows it. */
export const ACCOUNT_LINK_PATHS: Record<AccountLinkPurpose, string> = {
  invitation: '/account/invitation/',
  password_reset: '/account/reset/',
  email_verification: '/account/verify-email/',
};

/** The security notices a person receives by mail. */
export const SECURITY_NOTICE_KINDS = ['password_changed', 'second_factor_changed', 'assistant_connected', 'email_change_requested', 'identity_unlinked'] as const;
export type SecurityNoticeKind = (typeof SECURITY_NOTICE_KINDS)[number];

export type MailKind = AccountLinkPurpose | 'security_notice';

/** Why a link no longer works; each has its own page. */
export type DeadLinkReason = 'unknown' | 'used' | 'expired' | 'superseded' | 'password_changed';

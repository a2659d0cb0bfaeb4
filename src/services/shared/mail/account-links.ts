import { randomUUID } from 'node:crypto';
import type { User } from '../../../domain/accounts.ts';
import { ACCOUNT_LINK_LIFETIME_MS, type AccountLinkPurpose, type DeadLinkReason } from '../../../domain/account-links.ts';
import type { Clock } from '../../../domain/clock.ts';
import { sha256Hex } from '../../../domain/digests.ts';
import { AppError } from '../../../errors.ts';
import type { AccountLink } from '../../../storage/repositories/account-link-repository.ts';
import type { Repositories } from '../../../storage/store.ts';
import type { MailSettings } from '../deps.ts';

/** Link tokens are newSecretValue(): 43 base62 characters. Anything else is looked up nowhere. */
const TOKEN_PATTERN = /^[0-9A-Za-z]{43}$/;

/** Stored on a link when it is made: once the password hash changes, the link no longer matches. */
export const passwordStateOf = (passwordHash: string) => sha256Hex(`sesame password state\u0000${passwordHash}`);

export function requireMail(mail: MailSettings | undefined, field: string, what: string): void {
  if (mail?.enabled) return;
  throw new AppError('invalid_request', `Sesame sends no mail (SMTP_URL is not set), so it cannot ${what}.`, {
    fieldErrors: { [field]: 'needs outgoing mail, which is not configured (SMTP_URL)' },
  });
}

async function passwordStateOfUser(repos: Repositories, user: User): Promise<string> {
  const credentials = await repos.users.findCredentialsByAccount(user.account);
  return passwordStateOf(credentials?.passwordHash ?? '');
}

/**
 * Makes a new link of this purpose for the person and, when `queueMail`, queues the mail that carries
 * it. Their older live links of the purpose are superseded, except reset links: anyone may ask for a
 * reset, so a stranger's request must not end the link the person was sent.
 * Runs inside the caller's transaction.
 */
export async function issueAccountLink(
  repos: Repositories,
  clock: Clock,
  input: {
    purpose: AccountLinkPurpose;
    user: User;
    email: string;
    queueMail: boolean;
    /** The mail's language when the person has saved none. */
    fallbackLocale?: string | null | undefined;
    /** Instead of the purpose's usual lifetime. */
    lifetimeMs?: number | undefined;
  },
): Promise<AccountLink> {
  const now = clock.now();
  if (input.purpose !== 'password_reset') await repos.accountLinks.revokeLive(input.user.subjectId, input.purpose, now);
  const link = {
    linkId: `lnk_${randomUUID()}`,
    purpose: input.purpose,
    subjectId: input.user.subjectId,
    email: input.email,
    passwordState: await passwordStateOfUser(repos, input.user),
    createdAt: now,
    expiresAt: now + (input.lifetimeMs ?? ACCOUNT_LINK_LIFETIME_MS[input.purpose]),
  };
  await repos.accountLinks.insert(link);
  if (input.queueMail) {
    await repos.mailOutbox.enqueue({
      mailId: `mail_${randomUUID()}`,
      kind: input.purpose,
      recipient: input.email,
      subjectId: input.user.subjectId,
      linkId: link.linkId,
      params: { account: input.user.account, displayName: input.user.displayName, ...(input.fallbackLocale ? { locale: input.fallbackLocale } : {}) },
      createdAt: now,
    });
  }
  return { ...link, usedAt: null, revokedAt: null, minted: false };
}

/** Why a link of this person no longer works, or null while it does. */
export async function deadLinkReason(repos: Repositories, clock: Clock, link: AccountLink): Promise<{ reason: DeadLinkReason } | { user: User }> {
  if (link.usedAt !== null) return { reason: 'used' };
  if (link.revokedAt !== null) return { reason: 'superseded' };
  if (link.expiresAt <= clock.now()) return { reason: 'expired' };
  const user = await repos.users.findBySubjectId(link.subjectId);
  if (!user || user.status !== 'active') return { reason: 'unknown' };
  // A verification link carries a pending address, not the current one: a newer request or an
  // administrator's change of the address revokes it instead.
  if (link.purpose !== 'email_verification' && (await passwordStateOfUser(repos, user)) !== link.passwordState) {
    return { reason: 'password_changed' };
  }
  return { user };
}

export type OpenedLink = { link: AccountLink; user: User } | { dead: DeadLinkReason };

/** The live link this token opens for this purpose, with its person; or why it does not work. */
export async function openAccountLink(repos: Repositories, clock: Clock, token: string, purpose: AccountLinkPurpose): Promise<OpenedLink> {
  if (!TOKEN_PATTERN.test(token)) return { dead: 'unknown' };
  const link = await repos.accountLinks.findByTokenDigest(sha256Hex(token));
  if (!link || link.purpose !== purpose) return { dead: 'unknown' };
  const state = await deadLinkReason(repos, clock, link);
  return 'reason' in state ? { dead: state.reason } : { link, user: state.user };
}

import type { Actor } from '../../../domain/actor.ts';
import type { User } from '../../../domain/accounts.ts';
import { negotiateLocale, type Locale } from '../../../i18n/locales.ts';
import type { AccountLinkPurpose, MailKind } from '../../../domain/account-links.ts';
import { sha256Hex } from '../../../domain/digests.ts';
import { newSecretValue } from '../../../domain/ids.ts';
import type { ClaimOptions, OutboxMail } from '../../../storage/repositories/mail-outbox-repository.ts';
import type { Repositories } from '../../../storage/store.ts';
import { writeAudit } from '../audit.ts';
import type { ServiceDeps } from '../deps.ts';
import { deadLinkReason, issueAccountLink } from './account-links.ts';
import { RESET_MAIL_LIMIT } from '../../../domain/account-links.ts';

/** A mail ready to go: the template's kind and params, and for a link mail its freshly made token. */
export interface ReadyMail {
  mailId: string;
  kind: MailKind;
  recipient: string;
  params: Record<string, unknown>;
  /** `validForMs`: how long the link still works as it is sent. */
  link: { purpose: AccountLinkPurpose; token: string; validForMs: number } | null;
  /** The recipient's saved language, else the one the mail was queued with (an invitation's inviter's), else English. */
  locale: Locale;
}

const mailLocale = (recipient: User | undefined, params: Record<string, unknown>): Locale => negotiateLocale({ saved: recipient?.locale, queuedIn: params.locale });

/** Worker times (leases, next tries) come from the worker's own clock; link expiry from the services'. */
export function createOutgoingMailService({ store, clock }: ServiceDeps) {
  /** A reset request names an account: the worker matches it here, so the request itself does the same work for every name. */
  async function resolveResetRequest(repos: Repositories, mail: OutboxMail, claimId: string): Promise<OutboxMail | string> {
    const account = typeof mail.params.account === 'string' ? mail.params.account : '';
    const user = await repos.users.findByAccount(account);
    if (!user || user.status !== 'active') return 'no active account has this name';
    if (!user.email) return 'the account has no email address';
    // An unverified address may be anyone's (typed in by whoever held a session): it gets no reset link.
    if (!user.emailVerified) return 'the address of the account is not verified';
    const madeThisHour = await repos.accountLinks.countMadeSince(user.subjectId, 'password_reset', clock.now() - RESET_MAIL_LIMIT.windowMs);
    if (madeThisHour >= RESET_MAIL_LIMIT.perAccount) return `${RESET_MAIL_LIMIT.perAccount} reset mails already went to this account within the hour`;
    const link = await issueAccountLink(repos, clock, { purpose: 'password_reset', user, email: user.email, queueMail: false });
    await repos.mailOutbox.resolve(mail.mailId, claimId, { recipient: user.email, subjectId: user.subjectId, linkId: link.linkId });
    const ip = typeof mail.params.ip === 'string' ? mail.params.ip : null;
    const actor: Actor = { subjectId: user.subjectId, isAdmin: false, surface: 'system', ip };
    await writeAudit(repos, clock, actor, { action: 'user.password_reset_request', targetType: 'user', targetId: user.subjectId, after: { expiresAt: new Date(link.expiresAt).toISOString() } });
    return { ...mail, recipient: user.email, subjectId: user.subjectId, linkId: link.linkId, params: { account: user.account, displayName: user.displayName } };
  }

  return {
    claimDue: (options: ClaimOptions): Promise<OutboxMail[]> => store.repos.mailOutbox.claimDue(options),

    /**
     * Renews the claim and readies the mail: a reset request is matched to its person, a link mail
     * gets a new token (only its digest is stored). Null when the claim was lost or the mail is
     * dropped (its link died, or the reset request matched nobody with an address).
     */
    async prepare(claimed: OutboxMail, claimId: string, leaseUntil: number): Promise<ReadyMail | null> {
      return store.transaction(async (repos) => {
        if (!(await repos.mailOutbox.renewClaim(claimed.mailId, claimId, leaseUntil))) return null;
        let mail = claimed;
        if (mail.kind === 'password_reset' && mail.linkId === null) {
          const resolved = await resolveResetRequest(repos, mail, claimId);
          if (typeof resolved === 'string') {
            await repos.mailOutbox.markDropped(mail.mailId, claimId, clock.now(), resolved);
            return null;
          }
          mail = resolved;
        }
        if (mail.recipient === null) {
          await repos.mailOutbox.markDropped(mail.mailId, claimId, clock.now(), 'no recipient');
          return null;
        }
        if (mail.linkId === null) {
          const recipient = mail.subjectId ? await repos.users.findBySubjectId(mail.subjectId) : undefined;
          return { mailId: mail.mailId, kind: mail.kind, recipient: mail.recipient, params: mail.params, link: null, locale: mailLocale(recipient, mail.params) };
        }
        const link = await repos.accountLinks.findById(mail.linkId);
        const state = link ? await deadLinkReason(repos, clock, link) : { reason: 'unknown' as const };
        if (!link || 'reason' in state) {
          await repos.mailOutbox.markDropped(mail.mailId, claimId, clock.now(), `the link is no longer valid (${'reason' in state ? state.reason : 'unknown'})`);
          return null;
        }
        const token = newSecretValue();
        await repos.accountLinks.setTokenDigest(link.linkId, sha256Hex(token));
        return {
          mailId: mail.mailId,
          kind: mail.kind,
          recipient: mail.recipient,
          params: mail.params,
          link: { purpose: link.purpose, token, validForMs: link.expiresAt - clock.now() },
          locale: mailLocale(state.user, mail.params),
        };
      });
    },

    markSent: (mailId: string, claimId: string, at: number) => store.repos.mailOutbox.markSent(mailId, claimId, at),
    markDropped: (mailId: string, claimId: string, reason: string) => store.repos.mailOutbox.markDropped(mailId, claimId, clock.now(), reason),
    markFailed: (mailId: string, claimId: string, nextAttemptAt: number, error: string) => store.repos.mailOutbox.markFailed(mailId, claimId, nextAttemptAt, error),
    releaseClaim: (claimId: string) => store.repos.mailOutbox.releaseClaim(claimId),
    countPending: () => store.repos.mailOutbox.countPending(),
  };
}

export type OutgoingMailService = ReturnType<typeof createOutgoingMailService>;

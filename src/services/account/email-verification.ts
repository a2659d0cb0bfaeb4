import type { Actor } from '../../domain/actor.ts';
import type { DeadLinkReason } from '../../domain/account-links.ts';
import { SIGN_IN_FIRST } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';
import { writeAudit } from '../shared/audit.ts';
import { ownSubjectId } from '../shared/caller-checks.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { createPersonOnlyCheck } from './person-only.ts';
import { issueAccountLink, openAccountLink, requireMail } from '../shared/mail/account-links.ts';
import type { LinkCheck } from './password-reset.ts';
import { queueSecurityNotice } from './security-notices.ts';

/** The caller's address as My account shows it: the one in force, and the one waiting for its link. */
export interface MyEmail {
  email: string | null;
  emailVerified: boolean;
  /** The address a live verification link would switch to; null when none waits. */
  pendingEmail: string | null;
}

export type ConfirmEmailOutcome = { done: true; email: string } | { dead: DeadLinkReason } | { takenElsewhere: true; email: string; account: string };

const sameAddress = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/**
 * A person's own address. A new one is only pending: the current address stays in force (and keeps
 * receiving reset mail) until the link mailed to the new one is confirmed, and the current address is
 * told of the request. Confirming (no sign-in needed: holding the link is the proof) switches to the new
 * address, verified, unless another account holds it verified: a verified address belongs to one account.
 * The request itself answers the same for every address, so it tells nothing about other accounts.
 */
export function createEmailVerificationService(deps: ServiceDeps) {
  const { store, clock, mail } = deps;
  const personOnly = createPersonOnlyCheck(deps);
  return {
    /** The caller's address, whether it is verified, the one pending, and whether Sesame can mail a verification link. */
    async currentEmail(actor: Actor): Promise<MyEmail & { mailEnabled: boolean }> {
      const subjectId = ownSubjectId(actor);
      const user = await store.repos.users.findBySubjectId(subjectId);
      if (!user) throw new AppError('login_required', 'Sign in first.');
      const pending = await store.repos.accountLinks.findNewestLive(subjectId, 'email_verification', clock.now());
      return { email: user.email, emailVerified: user.emailVerified, pendingEmail: pending?.email ?? null, mailEnabled: mail?.enabled === true };
    },

    /**
     * Mails a verification link to `email` (replacing any earlier pending address) and a notice to the
     * current address; the current address stays. Sending the current, verified address changes nothing.
     */
    async changeEmail(actor: Actor, email: string): Promise<MyEmail> {
      const subjectId = personOnly.requirePerson(actor, 'Changing your email address');
      requireMail(mail, 'email', 'send the verification link');
      return store.transaction(async (repos) => {
        const user = await repos.users.findBySubjectId(subjectId);
        if (!user) throw new AppError('login_required', SIGN_IN_FIRST);
        if (sameAddress(user.email, email) && user.emailVerified) {
          const pending = await repos.accountLinks.findNewestLive(subjectId, 'email_verification', clock.now());
          return { email: user.email, emailVerified: true, pendingEmail: pending?.email ?? null };
        }
        await issueAccountLink(repos, clock, { purpose: 'email_verification', user, email, queueMail: true });
        if (user.email !== null && !sameAddress(user.email, email)) await queueSecurityNotice(repos, clock, mail, user, 'email_change_requested', { newEmail: email });
        await writeAudit(repos, clock, actor, {
          action: 'user.email_change_request',
          targetType: 'user',
          targetId: subjectId,
          before: { email: user.email, emailVerified: user.emailVerified },
          after: { pendingEmail: email },
        });
        return { email: user.email, emailVerified: user.emailVerified, pendingEmail: email };
      });
    },

    async checkVerificationLink(token: string): Promise<LinkCheck> {
      const opened = await openAccountLink(store.repos, clock, token, 'email_verification');
      if ('dead' in opened) return opened;
      return { holder: { account: opened.user.account, displayName: opened.user.displayName, email: opened.link.email, locale: opened.user.locale ?? null } };
    },

    /** Makes the link's address the person's verified address; refused (the link stays unused) while another account holds it verified. */
    async confirmEmail(token: string, from: { ip: string | null }): Promise<ConfirmEmailOutcome> {
      return store.transaction(async (repos) => {
        const opened = await openAccountLink(repos, clock, token, 'email_verification');
        if ('dead' in opened) return opened;
        const { user, link } = opened;
        const holders = await repos.users.listByVerifiedEmail(link.email);
        if (holders.some((holder) => holder.subjectId !== user.subjectId)) return { takenElsewhere: true as const, email: link.email, account: user.account };
        const now = clock.now();
        if (!(await repos.accountLinks.markUsed(link.linkId, now))) return { dead: 'used' as const };
        await repos.users.update(user.subjectId, { email: link.email, emailVerified: true }, now);
        const actor: Actor = { subjectId: user.subjectId, isAdmin: false, surface: 'console', ip: from.ip };
        await writeAudit(repos, clock, actor, {
          action: 'user.email_verify',
          targetType: 'user',
          targetId: user.subjectId,
          before: { email: user.email, emailVerified: user.emailVerified },
          after: { email: link.email, emailVerified: true },
        });
        return { done: true as const, email: link.email };
      });
    },
  };
}

export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;

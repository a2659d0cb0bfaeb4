import type { Actor } from '../domain/actor.ts';
import type { DeadLinkReason } from '../domain/account-links.ts';
import { SIGN_IN_FIRST } from '../api/contracts/error-advice.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from './audit.ts';
import { ownSubjectId } from './caller-checks.ts';
import type { ServiceDeps } from './deps.ts';
import { createPersonOnlyCheck } from './person-only.ts';
import { issueAccountLink, openAccountLink, requireMail } from './mail/account-links.ts';
import type { LinkCheck } from './password-reset.ts';

/**
 * A person's own address: changing it makes it unverified and mails a link to the new address;
 * confirming that link (no sign-in needed: holding the link is the proof) marks it verified.
 * email_verified is true only for an address verified so, by an administrator, or by an upstream.
 */
export function createEmailVerificationService(deps: ServiceDeps) {
  const { store, clock, mail } = deps;
  const personOnly = createPersonOnlyCheck(deps);
  return {
    /** The caller's address, whether it is verified, and whether Sesame can mail a verification link. */
    async currentEmail(actor: Actor): Promise<{ email: string | null; emailVerified: boolean; mailEnabled: boolean }> {
      const user = await store.repos.users.findBySubjectId(ownSubjectId(actor));
      if (!user) throw new AppError('login_required', 'Sign in first.');
      return { email: user.email, emailVerified: user.emailVerified, mailEnabled: mail?.enabled === true };
    },

    /** Sets the caller's address (unverified) and mails it a verification link; the same verified address changes nothing. */
    async changeEmail(actor: Actor, email: string): Promise<{ email: string; emailVerified: boolean }> {
      const subjectId = personOnly.requirePerson(actor, 'Changing your email address');
      requireMail(mail, 'email', 'send the verification link');
      return store.transaction(async (repos) => {
        const before = await repos.users.findBySubjectId(subjectId);
        if (!before) throw new AppError('login_required', SIGN_IN_FIRST);
        if (before.email === email && before.emailVerified) return { email, emailVerified: true };
        const now = clock.now();
        await repos.users.update(subjectId, { email, emailVerified: false }, now);
        const after = { ...before, email, emailVerified: false, updatedAt: now };
        await issueAccountLink(repos, clock, { purpose: 'email_verification', user: after, email, queueMail: true });
        await writeAudit(repos, clock, actor, {
          action: 'user.email_change',
          targetType: 'user',
          targetId: subjectId,
          before: { email: before.email, emailVerified: before.emailVerified },
          after: { email, emailVerified: false },
        });
        return { email, emailVerified: false };
      });
    },

    async checkVerificationLink(token: string): Promise<LinkCheck> {
      const opened = await openAccountLink(store.repos, clock, token, 'email_verification');
      if ('dead' in opened) return opened;
      return { holder: { account: opened.user.account, displayName: opened.user.displayName, email: opened.link.email, locale: opened.user.locale ?? null } };
    },

    async confirmEmail(token: string, from: { ip: string | null }): Promise<{ done: true; email: string } | { dead: DeadLinkReason }> {
      return store.transaction(async (repos) => {
        const opened = await openAccountLink(repos, clock, token, 'email_verification');
        if ('dead' in opened) return opened;
        const now = clock.now();
        if (!(await repos.accountLinks.markUsed(opened.link.linkId, now))) return { dead: 'used' as const };
        const { user, link } = opened;
        await repos.users.update(user.subjectId, { emailVerified: true }, now);
        const actor: Actor = { subjectId: user.subjectId, isAdmin: false, surface: 'console', ip: from.ip };
        await writeAudit(repos, clock, actor, {
          action: 'user.email_verify',
          targetType: 'user',
          targetId: user.subjectId,
          before: { email: link.email, emailVerified: user.emailVerified },
          after: { email: link.email, emailVerified: true },
        });
        return { done: true as const, email: link.email };
      });
    },
  };
}

export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;

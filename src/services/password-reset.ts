import { randomUUID } from 'node:crypto';
import type { Actor } from '../domain/actor.ts';
import type { DeadLinkReason } from '../domain/account-links.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from './audit.ts';
import { endEverySessionOf } from './end-sessions.ts';
import type { ServiceDeps } from './deps.ts';
import { openAccountLink, requireMail } from './mail/account-links.ts';
import { passwordProblem } from '../domain/passwords.ts';
import { hashPassword } from './passwords.ts';
import { queueSecurityNotice } from './security-notices.ts';

/** What a set-password page shows about the person a live link is for. */
export interface LinkHolder {
  account: string;
  displayName: string;
  email: string;
  /** The person's saved language, for the page. */
  locale: string | null;
}

export type LinkCheck = { holder: LinkHolder } | { dead: DeadLinkReason };

export function checkNewPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new AppError('invalid_request', `The new password ${problem}.`, { fieldErrors: { newPassword: problem } });
}

/**
 * "Forgot your password?": a request queues a reset mail for the worker to resolve, whether or not
 * the account exists, so the answer and its timing are the same either way; the worker makes the
 * 30-minute link only for an active account with an address. Using the link sets the password and
 * ends every session of the person.
 */
export function createPasswordResetService({ store, clock, mail }: ServiceDeps) {
  return {
    mailEnabled: () => mail?.enabled === true,

    /** Same result for every account name, known or not; 429 rate_limited when asked too often. */
    async requestReset(account: string, from: { ip: string | null }): Promise<void> {
      requireMail(mail, 'account', 'send password reset links');
      const name = account.trim();
      if (name === '' || name.length > 256) throw new AppError('invalid_request', 'Enter your account name.', { fieldErrors: { account: 'is required' } });
      await mail!.requestLimiter.consume({ account: name, ip: from.ip });
      await store.transaction((repos) =>
        repos.mailOutbox.enqueue({
          mailId: `mail_${randomUUID()}`,
          kind: 'password_reset',
          recipient: null,
          subjectId: null,
          linkId: null,
          params: { account: name, ip: from.ip },
          createdAt: clock.now(),
        }),
      );
    },

    async checkResetLink(token: string): Promise<LinkCheck> {
      const opened = await openAccountLink(store.repos, clock, token, 'password_reset');
      if ('dead' in opened) return opened;
      return { holder: { account: opened.user.account, displayName: opened.user.displayName, email: opened.link.email, locale: opened.user.locale ?? null } };
    },

    /** Sets the new password and ends every session of the person; a dead link changes nothing. */
    async resetPassword(token: string, newPassword: string, from: { ip: string | null }): Promise<{ done: true; account: string } | { dead: DeadLinkReason }> {
      const first = await openAccountLink(store.repos, clock, token, 'password_reset');
      if ('dead' in first) return first;
      checkNewPassword(newPassword);
      const passwordHash = await hashPassword(newPassword);
      // Opened again inside the transaction: the link may have been used while the password was hashed.
      return store.transaction(async (repos) => {
        const opened = await openAccountLink(repos, clock, token, 'password_reset');
        if ('dead' in opened) return opened;
        const now = clock.now();
        if (!(await repos.accountLinks.markUsed(opened.link.linkId, now))) return { dead: 'used' as const };
        const { user } = opened;
        await repos.users.setPasswordHash(user.subjectId, passwordHash, now);
        await endEverySessionOf(repos, user.subjectId, now);
        const actor: Actor = { subjectId: user.subjectId, isAdmin: false, surface: 'console', ip: from.ip };
        await writeAudit(repos, clock, actor, { action: 'user.password_reset_by_link', targetType: 'user', targetId: user.subjectId });
        await queueSecurityNotice(repos, clock, mail, user, 'password_changed');
        return { done: true as const, account: user.account };
      });
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

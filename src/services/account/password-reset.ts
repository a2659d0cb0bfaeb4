import { randomUUID } from 'node:crypto';
import type { Actor } from '../../domain/actor.ts';
import type { DeadLinkReason } from '../../domain/account-links.ts';
import type { User } from '../../domain/accounts.ts';
import { AppError } from '../../errors.ts';
import { writeAudit } from '../shared/audit.ts';
import { endEverySessionOf } from '../sign-in/end-sessions.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { openAccountLink, requireMail } from '../shared/mail/account-links.ts';
import { passwordProblem } from '../../domain/passwords.ts';
import { hashPassword } from '../sign-in/passwords.ts';
import { queueSecurityNotice } from './security-notices.ts';
import type { AccountLink } from '../../storage/repositories/account-link-repository.ts';
import type { Repositories } from '../../storage/store.ts';

/** What a set-password page shows about the person a live link is for. */
export interface LinkHolder {
  account: string;
  displayName: string;
  email: string;
  /** The person's saved language, for the page. */
  locale: string | null;
}

export type LinkCheck = { holder: LinkHolder } | { dead: DeadLinkReason };

type SetPasswordPurpose = 'invitation' | 'password_reset';

/** Whom a live set-password link is for, or why it no longer works. */
export async function checkSetPasswordLink({ store, clock }: Pick<ServiceDeps, 'store' | 'clock'>, token: string, purpose: SetPasswordPurpose): Promise<LinkCheck> {
  const opened = await openAccountLink(store.repos, clock, token, purpose);
  if ('dead' in opened) return opened;
  return { holder: { account: opened.user.account, displayName: opened.user.displayName, email: opened.link.email, locale: opened.user.locale ?? null } };
}

/**
 * Uses a live set-password link once: sets the password, then `andThen` writes what the purpose adds
 * (sessions ended, audit entry, notice) in the same transaction. A dead link changes nothing.
 */
export async function setPasswordThroughLink(
  { store, clock }: Pick<ServiceDeps, 'store' | 'clock'>,
  request: { token: string; purpose: SetPasswordPurpose; newPassword: string; ip: string | null },
  andThen: (repos: Repositories, used: { user: User; link: AccountLink; actor: Actor; now: number }) => Promise<void>,
): Promise<{ done: true; account: string } | { dead: DeadLinkReason }> {
  const first = await openAccountLink(store.repos, clock, request.token, request.purpose);
  if ('dead' in first) return first;
  checkNewPassword(request.newPassword);
  const passwordHash = await hashPassword(request.newPassword);
  // Opened again inside the transaction: the link may have been used while the password was hashed.
  return store.transaction(async (repos) => {
    const opened = await openAccountLink(repos, clock, request.token, request.purpose);
    if ('dead' in opened) return opened;
    const now = clock.now();
    if (!(await repos.accountLinks.markUsed(opened.link.linkId, now))) return { dead: 'used' as const };
    await repos.users.setPasswordHash(opened.user.subjectId, passwordHash, now);
    const actor: Actor = { subjectId: opened.user.subjectId, isAdmin: false, surface: 'console', ip: request.ip };
    await andThen(repos, { ...opened, actor, now });
    return { done: true as const, account: opened.user.account };
  });
}

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

    checkResetLink: (token: string): Promise<LinkCheck> => checkSetPasswordLink({ store, clock }, token, 'password_reset'),

    /** Sets the new password and ends every session of the person; a dead link changes nothing. */
    resetPassword: (token: string, newPassword: string, from: { ip: string | null }) =>
      setPasswordThroughLink({ store, clock }, { token, purpose: 'password_reset', newPassword, ip: from.ip }, async (repos, { user, actor, now }) => {
        await endEverySessionOf(repos, user.subjectId, now);
        await writeAudit(repos, clock, actor, { action: 'user.password_reset_by_link', targetType: 'user', targetId: user.subjectId });
        await queueSecurityNotice(repos, clock, mail, user, 'password_changed');
      }),
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

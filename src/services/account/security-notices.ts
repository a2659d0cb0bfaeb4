import { randomUUID } from 'node:crypto';
import type { User } from '../../domain/accounts.ts';
import type { SecurityNoticeKind } from '../../domain/account-links.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Repositories } from '../../storage/store.ts';
import type { MailSettings } from '../shared/deps.ts';
import type { ServiceDeps } from '../shared/deps.ts';

export type { SecurityNoticeKind };

/**
 * Queues a security notice to the person's address, inside the caller's transaction so the notice
 * goes exactly when the change commits. Nothing when mail is off or the person has no address.
 */
export async function queueSecurityNotice(
  repos: Repositories,
  clock: Clock,
  mail: MailSettings | undefined,
  user: User,
  kind: SecurityNoticeKind,
  /** What the notice's text names besides the account (an address change names the new address). */
  extra: { newEmail?: string } = {},
): Promise<boolean> {
  if (!mail?.enabled || !user.email) return false;
  await repos.mailOutbox.enqueue({
    mailId: `mail_${randomUUID()}`,
    kind: 'security_notice',
    recipient: user.email,
    subjectId: user.subjectId,
    linkId: null,
    params: { notice: kind, account: user.account, displayName: user.displayName, ...extra },
    createdAt: clock.now(),
  });
  return true;
}

/** Tells a person by mail that their password or second factors changed, or that an assistant was connected. */
export function createSecurityNoticeService({ store, clock, mail }: ServiceDeps) {
  return {
    /** Whether a notice was queued (false: mail is off, or the person is unknown or has no address). */
    async notify(subjectId: string, kind: SecurityNoticeKind): Promise<boolean> {
      return store.transaction(async (repos) => {
        const user = await repos.users.findBySubjectId(subjectId);
        return user ? queueSecurityNotice(repos, clock, mail, user, kind) : false;
      });
    },
  };
}

export type SecurityNoticeService = ReturnType<typeof createSecurityNoticeService>;

import type { Actor } from '../domain/actor.ts';
import type { DeadLinkReason } from '../domain/account-links.ts';
import { writeAudit } from './audit.ts';
import type { ServiceDeps } from './deps.ts';
import { openAccountLink } from './mail/account-links.ts';
import { hashPassword } from './passwords.ts';
import { checkNewPassword, type LinkCheck } from './password-reset.ts';

/**
 * Accepting an invitation: the person sets their first password through the 72-hour link an
 * administrator's invitation mailed them (users.inviteUser makes it). Reaching the link proves the
 * address, so it is marked verified when it is still the person's.
 */
export function createInvitationService({ store, clock }: ServiceDeps) {
  return {
    async checkInvitation(token: string): Promise<LinkCheck> {
      const opened = await openAccountLink(store.repos, clock, token, 'invitation');
      if ('dead' in opened) return opened;
      return { holder: { account: opened.user.account, displayName: opened.user.displayName, email: opened.link.email, locale: opened.user.locale ?? null } };
    },

    async acceptInvitation(token: string, newPassword: string, from: { ip: string | null }): Promise<{ done: true; account: string } | { dead: DeadLinkReason }> {
      const first = await openAccountLink(store.repos, clock, token, 'invitation');
      if ('dead' in first) return first;
      checkNewPassword(newPassword);
      const passwordHash = await hashPassword(newPassword);
      return store.transaction(async (repos) => {
        const opened = await openAccountLink(repos, clock, token, 'invitation');
        if ('dead' in opened) return opened;
        const now = clock.now();
        if (!(await repos.accountLinks.markUsed(opened.link.linkId, now))) return { dead: 'used' as const };
        const { user, link } = opened;
        await repos.users.setPasswordHash(user.subjectId, passwordHash, now);
        const verifies = user.email === link.email && !user.emailVerified;
        if (verifies) await repos.users.update(user.subjectId, { emailVerified: true }, now);
        const actor: Actor = { subjectId: user.subjectId, isAdmin: false, surface: 'console', ip: from.ip };
        await writeAudit(repos, clock, actor, {
          action: 'user.invitation_accept',
          targetType: 'user',
          targetId: user.subjectId,
          ...(verifies ? { before: { emailVerified: false }, after: { emailVerified: true } } : {}),
        });
        return { done: true as const, account: user.account };
      });
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;

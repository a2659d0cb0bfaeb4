import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { checkSetPasswordLink, setPasswordThroughLink, type LinkCheck } from '../account/password-reset.ts';

/**
 * Accepting an invitation: the person sets their first password through the 72-hour link an
 * administrator's invitation mailed them (users.inviteUser makes it). Reaching the link proves the
 * address, so it is marked verified when it is still the person's and no other account holds it verified.
 */
export function createInvitationService({ store, clock }: ServiceDeps) {
  return {
    checkInvitation: (token: string): Promise<LinkCheck> => checkSetPasswordLink({ store, clock }, token, 'invitation'),

    acceptInvitation: (token: string, newPassword: string, from: { ip: string | null }) =>
      setPasswordThroughLink({ store, clock }, { token, purpose: 'invitation', newPassword, ip: from.ip }, async (repos, { user, link, actor, now }) => {
        const heldElsewhere = (await repos.users.listByVerifiedEmail(link.email)).some((holder) => holder.subjectId !== user.subjectId);
        const verifies = user.email === link.email && !user.emailVerified && !heldElsewhere;
        if (verifies) await repos.users.update(user.subjectId, { emailVerified: true }, now);
        await writeAudit(repos, clock, actor, {
          action: 'user.invitation_accept',
          targetType: 'user',
          targetId: user.subjectId,
          ...(verifies ? { before: { emailVerified: false }, after: { emailVerified: true } } : {}),
        });
      }),
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;

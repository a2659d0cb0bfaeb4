import { useEffect, useState } from 'preact/hooks';
import { ASSIGNABLE_ROLES } from '../../../src/domain/roles.ts';
import type { AssignableRole, Member } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { FormError } from '../components/form-error.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';
import { roleName } from '../roles.ts';

const ROLE_DESCRIPTION_KEYS = { maintainer: 'console.roleDescription.maintainer', viewer: 'console.roleDescription.viewer' } as const satisfies Record<AssignableRole, string>;

export function ChangeRoleDialog({ member, onSave, onClose }: { member: Member | null; onSave: (member: Member, role: AssignableRole) => Promise<void>; onClose: () => void }) {
  const [role, setRole] = useState<AssignableRole>('maintainer');
  const dialog = useSubmit(onClose);
  useEffect(() => {
    if (member && member.role !== 'owner') setRole(member.role);
    dialog.clearError();
  }, [member]);

  const submit = dialog.submit(async () => {
    if (!member) return;
    await onSave(member, role);
    onClose();
  });

  return (
    <Dialog open={member !== null} title={t('console.changeRole.title', { name: member?.displayName ?? '' })} onClose={onClose}>
      <form onSubmit={submit}>
        <FormError error={dialog.error} />
        <fieldset>
          <legend>{t('console.members.role')}</legend>
          {ASSIGNABLE_ROLES.map((option) => (
            <div class="check" key={option}>
              <input type="radio" id={`role-${option}`} name="role" value={option} checked={role === option} onChange={() => setRole(option)} />
              <label for={`role-${option}`}>
                <strong>{roleName(option)}</strong> <span class="muted small">{t(ROLE_DESCRIPTION_KEYS[option])}</span>
              </label>
            </div>
          ))}
        </fieldset>
        <p class="small muted">{t('console.changeRole.ownerNote')}</p>
        <DialogActions onCancel={onClose} label={t('console.changeRole.save')} busyLabel={t('console.common.saving')} busy={dialog.busy} disabled={role === member?.role} />
      </form>
    </Dialog>
  );
}

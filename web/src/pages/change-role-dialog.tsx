import { useEffect, useState } from 'preact/hooks';
import { ASSIGNABLE_ROLES } from '../../../src/domain/roles.ts';
import type { ApiError } from '../api/client.ts';
import type { AssignableRole, Member } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';
import { t } from '../i18n.ts';
import { roleName } from '../roles.ts';

const ROLE_DESCRIPTION_KEYS = { maintainer: 'console.roleDescription.maintainer', viewer: 'console.roleDescription.viewer' } as const satisfies Record<AssignableRole, string>;

export function ChangeRoleDialog({ member, onSave, onClose }: { member: Member | null; onSave: (member: Member, role: AssignableRole) => Promise<void>; onClose: () => void }) {
  const [role, setRole] = useState<AssignableRole>('maintainer');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  useEffect(() => {
    if (member && member.role !== 'owner') setRole(member.role);
    setError(undefined);
  }, [member]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!member) return;
    setBusy(true);
    try {
      await onSave(member, role);
      onClose();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={member !== null} title={t('console.changeRole.title', { name: member?.displayName ?? '' })} onClose={onClose}>
      <form onSubmit={submit}>
        <FormError error={error} />
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
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={onClose}>
            {t('console.common.cancel')}
          </button>
          <button type="submit" class="button button-primary" disabled={busy || role === member?.role}>
            {t(busy ? 'console.common.saving' : 'console.changeRole.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

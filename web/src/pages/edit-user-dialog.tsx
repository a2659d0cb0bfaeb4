import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { t } from '../i18n.ts';
import { toApiError } from '../use-resource.ts';

interface EditUserDialogProps {
  /** The person being edited; null closes the dialog. */
  user: AdminUser | null;
  /** Whether the administrator is editing themselves: they cannot drop their own admin flag. */
  self: boolean;
  onClose: () => void;
  onSaved: (user: AdminUser) => void;
}

const formOf = (user: AdminUser | null) => ({
  displayName: user?.displayName ?? '',
  email: user?.email ?? '',
  emailVerified: user?.emailVerified ?? false,
  isAdmin: user?.isAdmin ?? false,
});

/** An administrator changes a person's name, email, whether that address is verified, and the admin flag; only what changed is sent. */
export function EditUserDialog({ user, self, onClose, onSaved }: EditUserDialogProps) {
  const [form, setForm] = useState(() => formOf(user));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  useEffect(() => {
    setForm(formOf(user));
    setError(undefined);
  }, [user?.subjectId]);
  const set = (changes: Partial<ReturnType<typeof formOf>>) => setForm({ ...form, ...changes });
  const fieldErrors = error?.fieldErrors ?? {};

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!user) return;
    const email = form.email.trim();
    const emailChanged = email !== '' && email !== (user.email ?? '');
    const body = {
      ...(form.displayName.trim() !== user.displayName ? { displayName: form.displayName.trim() } : {}),
      ...(emailChanged ? { email } : {}),
      // A new address starts unverified unless the administrator says otherwise in the same change.
      ...(form.emailVerified !== user.emailVerified || emailChanged ? { emailVerified: form.emailVerified } : {}),
      ...(form.isAdmin !== user.isAdmin ? { isAdmin: form.isAdmin } : {}),
    };
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const { user: saved } = await unwrap(api.PATCH('/admin/users/{subjectId}', { params: { path: { subjectId: user.subjectId } }, body }));
      onSaved(saved);
      onClose();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={user !== null} title={t('console.editUser.title', { account: user?.account ?? '' })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        <TextField label={t('console.createUser.displayName')} value={form.displayName} onValue={(displayName) => set({ displayName })} error={fieldErrors.displayName} />
        <TextField label={t('console.users.email')} type="email" value={form.email} onValue={(email) => set({ email })} hint={t('console.editUser.emailHint')} error={fieldErrors.email} />
        <div class="check">
          <input type="checkbox" id="edit-user-verified" checked={form.emailVerified} onChange={(e) => set({ emailVerified: e.currentTarget.checked })} />
          <label for="edit-user-verified">{t('console.editUser.verified')}</label>
        </div>
        <div class="check">
          <input type="checkbox" id="edit-user-admin" checked={form.isAdmin} disabled={self} onChange={(e) => set({ isAdmin: e.currentTarget.checked })} />
          <label for="edit-user-admin">{t('console.createUser.admin')}</label>
        </div>
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={onClose}>
            {t('console.common.cancel')}
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {t(busy ? 'console.common.saving' : 'console.editUser.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

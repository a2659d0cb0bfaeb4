import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { t } from '../i18n.ts';
import { useSubmit } from '../use-submit.ts';

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
  const dialog = useSubmit(onClose);
  useEffect(() => {
    setForm(formOf(user));
    dialog.clearError();
  }, [user?.subjectId]);
  const set = (changes: Partial<ReturnType<typeof formOf>>) => setForm({ ...form, ...changes });
  const { fieldErrors } = dialog;

  const submit = dialog.submit(async () => {
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
    if (Object.keys(body).length > 0) {
      const { user: saved } = await unwrap(api.PATCH('/admin/users/{subjectId}', { params: { path: { subjectId: user.subjectId } }, body }));
      onSaved(saved);
    }
    onClose();
  });

  return (
    <Dialog open={user !== null} title={t('console.editUser.title', { account: user?.account ?? '' })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <FormError error={dialog.error} fieldsShown />
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
        <DialogActions onCancel={onClose} label={t('console.editUser.save')} busyLabel={t('console.common.saving')} busy={dialog.busy} />
      </form>
    </Dialog>
  );
}

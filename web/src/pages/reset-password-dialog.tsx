import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';

export function ResetPasswordDialog({ user, onClose, onDone }: { user: AdminUser | null; onClose: () => void; onDone: (user: AdminUser) => void }) {
  const [password, setPassword] = useState('');
  const dialog = useSubmit(onClose, () => setPassword(''));

  const submit = dialog.submit(async () => {
    if (!user) return;
    await unwrap(api.POST('/admin/users/{subjectId}/password', { params: { path: { subjectId: user.subjectId } }, body: { password } }));
    dialog.close();
    onDone(user);
  });

  return (
    <Dialog open={user !== null} title={t('console.resetPassword.title', { account: user?.account ?? '' })} onClose={dialog.close}>
      <form onSubmit={submit} noValidate>
        <FormError error={dialog.error} fieldsShown />
        <TextField
          label={t('console.resetPassword.label')}
          type="password"
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          hint={t('console.resetPassword.hint')}
          error={dialog.fieldErrors.password}
        />
        <DialogActions onCancel={dialog.close} cancelLabel={t('console.createUser.cancel')} label={t('console.resetPassword.submit')} busyLabel={t('console.resetPassword.busy')} busy={dialog.busy} />
      </form>
    </Dialog>
  );
}

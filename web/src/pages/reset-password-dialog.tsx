import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';
import { t } from '../i18n.ts';

export function ResetPasswordDialog({ user, onClose, onDone }: { user: AdminUser | null; onClose: () => void; onDone: (user: AdminUser) => void }) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);

  const close = () => {
    setPassword('');
    setError(undefined);
    onClose();
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!user) return;
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.POST('/admin/users/{subjectId}/password', { params: { path: { subjectId: user.subjectId } }, body: { password } }));
      close();
      onDone(user);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={user !== null} title={t('console.resetPassword.title', { account: user?.account ?? '' })} onClose={close}>
      <form onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        <TextField
          label={t('console.resetPassword.label')}
          type="password"
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          hint={t('console.resetPassword.hint')}
          error={error?.fieldErrors.password}
        />
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={close}>
            {t('console.createUser.cancel')}
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {t(busy ? 'console.resetPassword.busy' : 'console.resetPassword.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

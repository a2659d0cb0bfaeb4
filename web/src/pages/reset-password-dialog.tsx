import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';

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
    <Dialog open={user !== null} title={`New password for ${user?.account ?? ''}`} onClose={close}>
      <form onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          hint="Their console and Agent API sessions end at once; give them the new password over a safe channel."
          error={error?.fieldErrors.password}
        />
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Set password'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { Factor } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';

const TEXT = {
  title: (name: string) => `Remove ${name}?`,
  body: {
    totp: 'Codes from this authenticator app will no longer sign you in.',
    passkey: 'This passkey will no longer sign you in. Remove it from the device too (in its password manager or security key settings).',
    recovery_codes: 'Your recovery codes stop working. Make new ones whenever you like.',
  },
  lastOne: 'It is your last authenticator: your recovery codes go with it, and signing in asks for your password alone.',
  password: 'Current password',
  passwordHint: 'To make sure it is you.',
  remove: 'Remove',
  removing: 'Removing…',
  cancel: 'Cancel',
} as const;

interface RemoveFactorDialogProps {
  factor: Factor | null;
  /** Whether the factor is the person's last authenticator (TOTP or passkey). */
  last: boolean;
  onClose: () => void;
  onRemoved: (factor: Factor) => void;
}

export function RemoveFactorDialog({ factor, last, onClose, onRemoved }: RemoveFactorDialogProps) {
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
    if (!factor) return;
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.DELETE('/account/factors/{factorId}', { params: { path: { factorId: factor.factorId } }, body: { currentPassword: password } }));
      setPassword('');
      onRemoved(factor);
      onClose();
    } catch (caught) {
      setError(toApiError(caught));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={factor !== null} title={TEXT.title(factor?.name ?? '')} onClose={close} role="alertdialog">
      {factor && (
        <form onSubmit={submit} noValidate>
          <p>{TEXT.body[factor.type]}</p>
          {last && factor.type !== 'recovery_codes' && <p>{TEXT.lastOne}</p>}
          <FormError error={error} fieldsShown />
          <TextField
            label={TEXT.password}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onValue={setPassword}
            hint={TEXT.passwordHint}
            error={error?.fieldErrors.currentPassword}
          />
          <div class="actions dialog-actions">
            <button type="button" class="button" onClick={close}>
              {TEXT.cancel}
            </button>
            <button type="submit" class="button button-danger" disabled={busy}>
              {busy ? TEXT.removing : TEXT.remove}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

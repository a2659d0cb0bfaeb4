import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Factor } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';
import { factorName } from '../factor-name.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  title: (name: string) => t('console.removeFactor.title', { name }),
  body: {
    get totp() {
      return t('console.removeFactor.body.totp');
    },
    get passkey() {
      return t('console.removeFactor.body.passkey');
    },
    get recovery_codes() {
      return t('console.removeFactor.body.recovery_codes');
    },
  },
  get lastOne() {
    return t('console.removeFactor.lastOne');
  },
  get password() {
    return t('console.removeFactor.password');
  },
  get passwordHint() {
    return t('console.removeFactor.passwordHint');
  },
  get remove() {
    return t('console.removeFactor.remove');
  },
  get removing() {
    return t('console.removeFactor.removing');
  },
  get cancel() {
    return t('console.removeFactor.cancel');
  },
};

interface RemoveFactorDialogProps {
  factor: Factor | null;
  /** Whether the factor is the person's last authenticator (TOTP or passkey). */
  last: boolean;
  onClose: () => void;
  onRemoved: (factor: Factor) => void;
}

export function RemoveFactorDialog({ factor, last, onClose, onRemoved }: RemoveFactorDialogProps) {
  const [password, setPassword] = useState('');
  const dialog = useSubmit(onClose, () => setPassword(''));

  const submit = dialog.submit(
    async () => {
      if (!factor) return;
      await unwrap(api.DELETE('/account/factors/{factorId}', { params: { path: { factorId: factor.factorId } }, body: { currentPassword: password } }));
      setPassword('');
      onRemoved(factor);
      onClose();
    },
    () => setPassword(''),
  );

  return (
    <Dialog open={factor !== null} title={TEXT.title(factor ? factorName(factor) : '')} onClose={dialog.close} role="alertdialog">
      {factor && (
        <form onSubmit={submit} noValidate>
          <p>{TEXT.body[factor.type]}</p>
          {last && factor.type !== 'recovery_codes' && <p>{TEXT.lastOne}</p>}
          <FormError error={dialog.error} fieldsShown />
          <TextField
            label={TEXT.password}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onValue={setPassword}
            hint={TEXT.passwordHint}
            error={dialog.fieldErrors.currentPassword}
          />
          <DialogActions onCancel={dialog.close} cancelLabel={TEXT.cancel} label={TEXT.remove} busyLabel={TEXT.removing} busy={dialog.busy} danger />
        </form>
      )}
    </Dialog>
  );
}

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

const BODY_KEYS = { totp: 'console.removeFactor.body.totp', passkey: 'console.removeFactor.body.passkey', recovery_codes: 'console.removeFactor.body.recovery_codes' } as const;

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
    <Dialog open={factor !== null} title={t('console.removeFactor.title', { name: factor ? factorName(factor) : '' })} onClose={dialog.close} role="alertdialog">
      {factor && (
        <form onSubmit={submit} noValidate>
          <p>{t(BODY_KEYS[factor.type])}</p>
          {last && factor.type !== 'recovery_codes' && <p>{t('console.removeFactor.lastOne')}</p>}
          <FormError error={dialog.error} fieldsShown />
          <TextField
            label={t('console.removeFactor.password')}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onValue={setPassword}
            hint={t('console.removeFactor.passwordHint')}
            error={dialog.fieldErrors.currentPassword}
          />
          <DialogActions onCancel={dialog.close} cancelLabel={t('console.removeFactor.cancel')} label={t('console.removeFactor.remove')} busyLabel={t('console.removeFactor.removing')} busy={dialog.busy} danger />
        </form>
      )}
    </Dialog>
  );
}

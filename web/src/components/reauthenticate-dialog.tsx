import { useEffect, useRef, useState } from 'preact/hooks';
import { api, onReauthenticationRequired, unwrap } from '../api/client.ts';
import { t } from '../i18n.ts';
import { useSubmit } from '../use-submit.ts';
import { Dialog } from './dialog.tsx';
import { DialogActions } from './dialog-actions.tsx';
import { TextField } from './field.tsx';
import { FormError } from './form-error.tsx';
import { OneTimeCodeField } from './one-time-code-field.tsx';

/**
 * Asks the person to prove it is them again when a person-only action meets 403
 * reauthentication_required (the console session's proof is older than REAUTH_WINDOW_SECONDS):
 * their password, or a one-time code (authenticator or recovery code). Proven, the action the person
 * asked for is sent again by the API client; cancelled, it fails with its own message.
 */
export function ReauthenticateDialog() {
  const [open, setOpen] = useState(false);
  const [withCode, setWithCode] = useState(false);
  const [secret, setSecret] = useState('');
  const settle = useRef<((proven: boolean) => void) | null>(null);

  const settleWith = (proven: boolean) => {
    setOpen(false);
    const resolve = settle.current;
    settle.current = null;
    resolve?.(proven);
  };
  // Cancelling forgets what was typed and leaves the action unproven.
  const dialog = useSubmit(() => settleWith(false), () => setSecret(''));
  const { error } = dialog;

  useEffect(() => {
    onReauthenticationRequired(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current?.(false);
          settle.current = resolve;
          setWithCode(false);
          setSecret('');
          dialog.clearError();
          setOpen(true);
        }),
    );
  }, []);

  const submit = dialog.submit(
    async () => {
      await unwrap(api.POST('/account/reauthenticate', { body: withCode ? { otp: secret.replace(/\s/g, '') } : { currentPassword: secret } }));
      setSecret('');
      settleWith(true);
    },
    () => setSecret(''),
  );

  const switchProof = () => {
    setWithCode(!withCode);
    setSecret('');
    dialog.clearError();
  };

  return (
    <Dialog open={open} title={t('console.reauthenticate.title')} onClose={dialog.close}>
      <form onSubmit={submit} noValidate>
        <p>{t('console.reauthenticate.intro')}</p>
        <FormError error={error} fieldsShown />
        {withCode ? (
          <OneTimeCodeField
            key="otp"
            label={t('console.reauthenticate.code')}
            name="otp"
            value={secret}
            onValue={setSecret}
            hint={t('console.reauthenticate.codeHint')}
            error={error?.fieldErrors.otp}
            focusOnMount
          />
        ) : (
          <TextField
            key="password"
            label={t('console.reauthenticate.password')}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={secret}
            onValue={setSecret}
            error={error?.fieldErrors.currentPassword}
          />
        )}
        <p>
          <button type="button" class="button button-small" onClick={switchProof}>
            {withCode ? t('console.reauthenticate.usePassword') : t('console.reauthenticate.useCode')}
          </button>
        </p>
        <DialogActions
          onCancel={dialog.close}
          cancelLabel={t('console.reauthenticate.cancel')}
          label={t('console.reauthenticate.submit')}
          busyLabel={t('console.reauthenticate.checking')}
          busy={dialog.busy}
        />
      </form>
    </Dialog>
  );
}

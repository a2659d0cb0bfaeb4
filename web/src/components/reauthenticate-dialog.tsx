import { useEffect, useRef, useState } from 'preact/hooks';
import { api, onReauthenticationRequired, unwrap, type ApiError } from '../api/client.ts';
import { t } from '../i18n.ts';
import { toApiError } from '../use-resource.ts';
import { Dialog } from './dialog.tsx';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const settle = useRef<((proven: boolean) => void) | null>(null);

  useEffect(() => {
    onReauthenticationRequired(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current?.(false);
          settle.current = resolve;
          setWithCode(false);
          setSecret('');
          setError(undefined);
          setOpen(true);
        }),
    );
  }, []);

  const finish = (proven: boolean) => {
    setOpen(false);
    setSecret('');
    setError(undefined);
    const resolve = settle.current;
    settle.current = null;
    resolve?.(proven);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.POST('/account/reauthenticate', { body: withCode ? { otp: secret.replace(/\s/g, '') } : { currentPassword: secret } }));
      finish(true);
    } catch (caught) {
      setError(toApiError(caught));
      setSecret('');
    } finally {
      setBusy(false);
    }
  };

  const switchProof = () => {
    setWithCode(!withCode);
    setSecret('');
    setError(undefined);
  };

  return (
    <Dialog open={open} title={t('console.reauthenticate.title')} onClose={() => finish(false)}>
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
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={() => finish(false)}>
            {t('console.reauthenticate.cancel')}
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? t('console.reauthenticate.checking') : t('console.reauthenticate.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

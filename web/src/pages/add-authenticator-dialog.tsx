import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Factor, TotpEnrolment } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { FormError } from '../components/form-error.tsx';
import { OneTimeCodeField } from '../components/one-time-code-field.tsx';
import { QrCode } from '../components/qr-code.tsx';
import { FactorNameForm } from './factor-name-form.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';


interface AddAuthenticatorDialogProps {
  open: boolean;
  onClose: () => void;
  /** The confirmed authenticator, and the recovery codes when it is the first factor. */
  onAdded: (factor: Factor, recoveryCodes: string[] | undefined) => void;
}

/** Two steps: name it and get its secret and QR code; confirm it with a first code. */
export function AddAuthenticatorDialog({ open, onClose, onAdded }: AddAuthenticatorDialogProps) {
  const [name, setName] = useState('');
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const secretId = useId();
  const scanStep = useRef<HTMLParagraphElement>(null);

  // The first step's controls are gone: focus goes to the start of the second.
  useEffect(() => {
    if (enrolment) scanStep.current?.focus();
  }, [enrolment]);

  const reset = () => {
    setName('');
    setEnrolment(null);
    setCode('');
  };
  const dialog = useSubmit(onClose, reset);
  const { error, busy } = dialog;

  const start = dialog.submit(async () => {
    setEnrolment(await unwrap(api.POST('/account/factors/totp', { body: { name: name.trim() || t('console.addAuthenticator.defaultName') } })));
  });

  const confirm = dialog.submit(
    async () => {
      if (!enrolment) return;
      const result = await unwrap(
        api.POST('/account/factors/totp/{factorId}/confirm', { params: { path: { factorId: enrolment.factorId } }, body: { code: code.replace(/\s/g, '') } }),
      );
      reset();
      onAdded(result.factor, result.recoveryCodes);
    },
    () => setCode(''),
  );

  return (
    <Dialog open={open} title={t('console.addAuthenticator.title')} onClose={dialog.close} wide>
      {!enrolment ? (
        <FactorNameForm texts="console.addAuthenticator" name={name} onName={setName} submission={dialog} onSubmit={start} label={t('console.addAuthenticator.next')} busyLabel={t('console.addAuthenticator.starting')} />
      ) : (
        <form onSubmit={confirm} noValidate>
          <p ref={scanStep} tabIndex={-1}>
            {t('console.addAuthenticator.scan')}
          </p>
          <div class="qr-frame">
            <QrCode svg={enrolment.qrCodeSvg} label={t('console.addAuthenticator.qrLabel')} />
          </div>
          <div class="field">
            <label for={secretId}>{t('console.addAuthenticator.secret')}</label>
            <div class="copy-row">
              <input id={secretId} class="secret-input" type="text" readOnly value={enrolment.secret} spellcheck={false} aria-describedby={`${secretId}-hint`} />
              <CopyButton text={enrolment.secret} label={t('console.addAuthenticator.copySecret')} fallbackTargetId={secretId} />
            </div>
            <p class="field-hint" id={`${secretId}-hint`}>
              {t('console.addAuthenticator.secretHint')}
            </p>
          </div>
          <FormError error={error} fieldsShown />
          <OneTimeCodeField label={t('console.addAuthenticator.code')} hint={t('console.addAuthenticator.codeHint')} name="code" value={code} onValue={setCode} error={error?.fieldErrors.code} />
          <DialogActions onCancel={dialog.close} cancelLabel={t('console.addAuthenticator.cancel')} label={t('console.addAuthenticator.confirm')} busyLabel={t('console.addAuthenticator.confirming')} busy={busy} />
        </form>
      )}
    </Dialog>
  );
}

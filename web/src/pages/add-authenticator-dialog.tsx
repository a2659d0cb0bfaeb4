import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Factor, TotpEnrolment } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { OneTimeCodeField } from '../components/one-time-code-field.tsx';
import { QrCode } from '../components/qr-code.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get title() {
    return t('console.addAuthenticator.title');
  },
  get intro() {
    return t('console.addAuthenticator.intro');
  },
  get name() {
    return t('console.addAuthenticator.name');
  },
  get nameHint() {
    return t('console.addAuthenticator.nameHint');
  },
  get defaultName() {
    return t('console.addAuthenticator.defaultName');
  },
  get next() {
    return t('console.addAuthenticator.next');
  },
  get starting() {
    return t('console.addAuthenticator.starting');
  },
  get scan() {
    return t('console.addAuthenticator.scan');
  },
  get qrLabel() {
    return t('console.addAuthenticator.qrLabel');
  },
  get secret() {
    return t('console.addAuthenticator.secret');
  },
  get secretHint() {
    return t('console.addAuthenticator.secretHint');
  },
  get copySecret() {
    return t('console.addAuthenticator.copySecret');
  },
  get code() {
    return t('console.addAuthenticator.code');
  },
  get codeHint() {
    return t('console.addAuthenticator.codeHint');
  },
  get confirm() {
    return t('console.addAuthenticator.confirm');
  },
  get confirming() {
    return t('console.addAuthenticator.confirming');
  },
  get cancel() {
    return t('console.addAuthenticator.cancel');
  },
};

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
    setEnrolment(await unwrap(api.POST('/account/factors/totp', { body: { name: name.trim() || TEXT.defaultName } })));
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
    <Dialog open={open} title={TEXT.title} onClose={dialog.close} wide>
      {!enrolment ? (
        <form onSubmit={start} noValidate>
          <p>{TEXT.intro}</p>
          <FormError error={error} fieldsShown />
          <TextField label={TEXT.name} name="name" value={name} onValue={setName} placeholder={TEXT.defaultName} hint={TEXT.nameHint} error={error?.fieldErrors.name} />
          <DialogActions onCancel={dialog.close} cancelLabel={TEXT.cancel} label={TEXT.next} busyLabel={TEXT.starting} busy={busy} />
        </form>
      ) : (
        <form onSubmit={confirm} noValidate>
          <p ref={scanStep} tabIndex={-1}>
            {TEXT.scan}
          </p>
          <div class="qr-frame">
            <QrCode svg={enrolment.qrCodeSvg} label={TEXT.qrLabel} />
          </div>
          <div class="field">
            <label for={secretId}>{TEXT.secret}</label>
            <div class="copy-row">
              <input id={secretId} class="secret-input" type="text" readOnly value={enrolment.secret} spellcheck={false} aria-describedby={`${secretId}-hint`} />
              <CopyButton text={enrolment.secret} label={TEXT.copySecret} fallbackTargetId={secretId} />
            </div>
            <p class="field-hint" id={`${secretId}-hint`}>
              {TEXT.secretHint}
            </p>
          </div>
          <FormError error={error} fieldsShown />
          <OneTimeCodeField label={TEXT.code} hint={TEXT.codeHint} name="code" value={code} onValue={setCode} error={error?.fieldErrors.code} />
          <DialogActions onCancel={dialog.close} cancelLabel={TEXT.cancel} label={TEXT.confirm} busyLabel={TEXT.confirming} busy={busy} />
        </form>
      )}
    </Dialog>
  );
}

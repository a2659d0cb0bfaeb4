import { startRegistration, WebAuthnError, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { ApiError, api, unwrap } from '../api/client.ts';
import type { operations } from '../api/schema.ts';
import type { Factor } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { useSubmit } from '../use-submit.ts';
import { FactorNameForm } from './factor-name-form.tsx';
import { t } from '../i18n.ts';


interface AddPasskeyDialogProps {
  open: boolean;
  onClose: () => void;
  /** The new passkey, and the recovery codes when it is the first factor. */
  onAdded: (factor: Factor, recoveryCodes: string[] | undefined) => void;
}

/** Names the passkey, lets the browser make it from Sesame's options, and registers the browser's answer. */
export function AddPasskeyDialog({ open, onClose, onAdded }: AddPasskeyDialogProps) {
  const [name, setName] = useState('');
  const dialog = useSubmit(onClose, () => setName(''));

  const create = dialog.submit(async () => {
    const options = await unwrap(api.POST('/account/factors/passkeys/options'));
    const credential = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON }).catch((caught: unknown) => {
      throw browserProblem(caught);
    });
    const result = await unwrap(
      api.POST('/account/factors/passkeys', { body: { name: name.trim() || t('console.addPasskey.defaultName'), response: credential as unknown as PasskeyAnswer } }),
    );
    setName('');
    onAdded(result.factor, result.recoveryCodes);
  });

  return (
    <Dialog open={open} title={t('console.addPasskey.title')} onClose={dialog.close}>
      <FactorNameForm texts="console.addPasskey" name={name} onName={setName} submission={dialog} onSubmit={create} label={t('console.addPasskey.create')} busyLabel={t('console.addPasskey.creating')} />
    </Dialog>
  );
}

type PasskeyAnswer = operations['addPasskey']['requestBody']['content']['application/json']['response'];

/** The browser's refusal in words: a cancelled prompt is the person's choice, anything else a problem here. */
function browserProblem(caught: unknown): ApiError {
  const cancelled = caught instanceof WebAuthnError ? caught.code === 'ERROR_CEREMONY_ABORTED' || caught.name === 'NotAllowedError' : caught instanceof Error && caught.name === 'NotAllowedError';
  return new ApiError(0, 'passkey_not_made', cancelled ? t('console.addPasskey.cancelled') : t('console.addPasskey.failed'));
}

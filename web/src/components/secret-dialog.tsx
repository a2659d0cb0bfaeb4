import { useId } from 'preact/hooks';
import type { NewSecret } from '../api/types.ts';
import { CopyButton } from './copy-button.tsx';
import { Dialog } from './dialog.tsx';
import { t, tWith } from '../i18n.ts';

interface SecretDialogProps {
  secret: NewSecret | null;
  clientId: string;
  title: string;
  onClose: () => void;
}

/** The one time a client secret is shown. Closing the dialog drops it from the page for good. */
export function SecretDialog({ secret, clientId, title, onClose }: SecretDialogProps) {
  const secretFieldId = useId();
  const warningId = useId();
  return (
    <Dialog open={secret !== null} title={title} onClose={onClose} role="alertdialog" wide>
      {secret && (
        <>
          <div class="alert alert-warning" id={warningId}>
            <p>
              <strong>{t('console.secretDialog.copyNow')}</strong> {t('console.secretDialog.digestOnly')}
            </p>
          </div>
          <div class="field">
            <span class="field-label">{t('console.connection.clientId')}</span>
            <div class="copy-row">
              <code class="secret-value">{clientId}</code>
              <CopyButton text={clientId} label={t('console.connection.copyClientId')} />
            </div>
          </div>
          <div class="field">
            <label for={secretFieldId}>{t('console.secretDialog.secret')}</label>
            <div class="copy-row">
              <input id={secretFieldId} data-autofocus class="secret-input" type="text" readOnly value={secret.value} aria-describedby={warningId} spellcheck={false} />
              <CopyButton text={secret.value} label={t('console.secretDialog.copySecret')} fallbackTargetId={secretFieldId} />
            </div>
            <p class="field-hint">
              {tWith('console.secretDialog.hint', { secretId: <code>{secret.secretId}</code>, method: <code>client_secret_basic</code> })}
            </p>
          </div>
          <div class="actions dialog-actions">
            <button type="button" class="button button-primary" onClick={onClose}>
              {t('console.secretDialog.done')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

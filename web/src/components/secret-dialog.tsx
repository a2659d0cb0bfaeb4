import { useId } from 'preact/hooks';
import type { NewSecret } from '../api/types.ts';
import { CopyButton } from './copy-button.tsx';
import { Dialog } from './dialog.tsx';

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
              <strong>Copy the client secret now. It will not be shown again.</strong> Sesame stores only a digest of it. If it is lost, rotate
              the secret to get a new one.
            </p>
          </div>
          <div class="field">
            <span class="field-label">Client ID</span>
            <div class="copy-row">
              <code class="secret-value">{clientId}</code>
              <CopyButton text={clientId} label="Copy client ID" />
            </div>
          </div>
          <div class="field">
            <label for={secretFieldId}>Client secret</label>
            <div class="copy-row">
              <input id={secretFieldId} data-autofocus class="secret-input" type="text" readOnly value={secret.value} aria-describedby={warningId} spellcheck={false} />
              <CopyButton text={secret.value} label="Copy secret" fallbackTargetId={secretFieldId} />
            </div>
            <p class="field-hint">
              Secret ID <code>{secret.secretId}</code>. The relying party sends it with <code>client_secret_basic</code>.
            </p>
          </div>
          <div class="actions dialog-actions">
            <button type="button" class="button button-primary" onClick={onClose}>
              I have stored the secret
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

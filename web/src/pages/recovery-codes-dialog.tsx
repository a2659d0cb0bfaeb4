import { useEffect, useId, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { t } from '../i18n.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get title() {
    return t('console.recoveryCodes.title');
  },
  get warning() {
    return t('console.recoveryCodes.warning');
  },
  get warningRest() {
    return t('console.recoveryCodes.warningRest');
  },
  get listLabel() {
    return t('console.recoveryCodes.listLabel');
  },
  get copy() {
    return t('console.recoveryCodes.copy');
  },
  get download() {
    return t('console.recoveryCodes.download');
  },
  fileName: 'sesame-recovery-codes.txt',
  fileHeading: (account: string) => t('console.recoveryCodes.fileHeading', { account }),
  get done() {
    return t('console.recoveryCodes.done');
  },
};

/** The one time recovery codes are shown: copy, download, and then they are gone from the page. */
export function RecoveryCodesDialog({ codes, account, onClose }: { codes: string[] | null; account: string; onClose: () => void }) {
  const warningId = useId();
  const listId = useId();
  const text = codes ? `${TEXT.fileHeading(account)}\n\n${codes.join('\n')}\n` : '';
  const [downloadUrl, setDownloadUrl] = useState('');

  useEffect(() => {
    if (!codes) return undefined;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    setDownloadUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [codes]);

  return (
    <Dialog open={codes !== null} title={TEXT.title} onClose={onClose} role="alertdialog" wide>
      {codes && (
        <>
          <div class="alert alert-warning" id={warningId}>
            <p>
              <strong>{TEXT.warning}</strong> {TEXT.warningRest}
            </p>
          </div>
          <ol class="recovery-codes" id={listId} aria-label={TEXT.listLabel} aria-describedby={warningId} tabIndex={-1} data-autofocus>
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
          <div class="actions">
            <CopyButton text={codes.join('\n')} label={TEXT.copy} />
            <a class="button button-small" href={downloadUrl} download={TEXT.fileName}>
              {TEXT.download}
            </a>
          </div>
          <div class="actions dialog-actions">
            <button type="button" class="button button-primary" onClick={onClose}>
              {TEXT.done}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

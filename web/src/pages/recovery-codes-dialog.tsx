import { useEffect, useId, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { t } from '../i18n.ts';


/** The one time recovery codes are shown: copy, download, and then they are gone from the page. */
export function RecoveryCodesDialog({ codes, account, onClose }: { codes: string[] | null; account: string; onClose: () => void }) {
  const warningId = useId();
  const listId = useId();
  const text = codes ? `${t('console.recoveryCodes.fileHeading', { account })}\n\n${codes.join('\n')}\n` : '';
  const [downloadUrl, setDownloadUrl] = useState('');

  useEffect(() => {
    if (!codes) return undefined;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    setDownloadUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [codes]);

  return (
    <Dialog open={codes !== null} title={t('console.recoveryCodes.title')} onClose={onClose} role="alertdialog" wide>
      {codes && (
        <>
          <div class="alert alert-warning" id={warningId}>
            <p>
              <strong>{t('console.recoveryCodes.warning')}</strong> {t('console.recoveryCodes.warningRest')}
            </p>
          </div>
          <ol class="recovery-codes" id={listId} aria-label={t('console.recoveryCodes.listLabel')} aria-describedby={warningId} tabIndex={-1} data-autofocus>
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
          <div class="actions">
            <CopyButton text={codes.join('\n')} label={t('console.recoveryCodes.copy')} />
            <a class="button button-small" href={downloadUrl} download="sesame-recovery-codes.txt">
              {t('console.recoveryCodes.download')}
            </a>
          </div>
          <div class="actions dialog-actions">
            <button type="button" class="button button-primary" onClick={onClose}>
              {t('console.recoveryCodes.done')}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

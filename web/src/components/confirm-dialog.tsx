import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ApiError } from '../api/client.ts';
import { toApiError } from '../use-resource.ts';
import { Dialog } from './dialog.tsx';
import { FormError } from './form-error.tsx';
import { t } from '../i18n.ts';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  children: ComponentChildren;
}

/** Asks before an action; runs it, and keeps the dialog open with the reason if it fails. */
export function ConfirmDialog({ open, title, confirmLabel, danger = false, onConfirm, onClose, children }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);

  const close = () => {
    setError(undefined);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title={title} onClose={close} role="alertdialog">
      <div class="dialog-message">{children}</div>
      <FormError error={error} />
      <div class="actions dialog-actions">
        <button type="button" class="button" onClick={close} data-autofocus>
          {t('console.common.cancel')}
        </button>
        <button type="button" class={danger ? 'button button-danger' : 'button button-primary'} onClick={confirm} disabled={busy}>
          {busy ? t('console.common.working') : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

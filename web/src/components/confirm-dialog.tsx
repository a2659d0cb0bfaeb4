import type { ComponentChildren } from 'preact';
import { useSubmit } from '../use-submit.ts';
import { Dialog } from './dialog.tsx';
import { DialogActions } from './dialog-actions.tsx';
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
  const dialog = useSubmit(onClose);
  const confirm = dialog.submit(async () => {
    await onConfirm();
    onClose();
  });

  return (
    <Dialog open={open} title={title} onClose={dialog.close} role="alertdialog">
      <div class="dialog-message">{children}</div>
      <FormError error={dialog.error} />
      <DialogActions onCancel={dialog.close} focusCancel label={confirmLabel} busyLabel={t('console.common.working')} busy={dialog.busy} danger={danger} onAction={() => void confirm()} />
    </Dialog>
  );
}

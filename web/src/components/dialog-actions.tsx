import { t } from '../i18n.ts';

interface DialogActionsProps {
  onCancel: () => void;
  /** The action's label, and the one it shows while `busy`. */
  label: string;
  busyLabel: string;
  busy: boolean;
  cancelLabel?: string;
  danger?: boolean;
  /** Beyond `busy`: the action cannot be taken yet (nothing changed, say). */
  disabled?: boolean;
  /** For a dialog without a form: the action runs on click; otherwise the button submits the dialog's form. */
  onAction?: () => void;
  /** Focus starts on Cancel, for a question whose safe answer is no. */
  focusCancel?: boolean;
}

/** A dialog's closing row: Cancel, then the action, which says when it is at work. */
export function DialogActions({ onCancel, label, busyLabel, busy, cancelLabel = t('console.common.cancel'), danger = false, disabled = false, onAction, focusCancel = false }: DialogActionsProps) {
  return (
    <div class="actions dialog-actions">
      <button type="button" class="button" onClick={onCancel} data-autofocus={focusCancel || undefined}>
        {cancelLabel}
      </button>
      <button type={onAction ? 'button' : 'submit'} class={danger ? 'button button-danger' : 'button button-primary'} onClick={onAction} disabled={busy || disabled}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}

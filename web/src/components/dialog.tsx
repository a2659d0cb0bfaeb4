import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  /** 'alertdialog' for confirmations and one-time information. */
  role?: 'dialog' | 'alertdialog';
  wide?: boolean;
}

const FOCUSABLE = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/**
 * A modal on the native <dialog>: the browser keeps focus inside and makes the page behind inert;
 * this moves focus to the first field (or [data-autofocus]) and gives it back to the opener on close.
 */
export function Dialog({ open, title, onClose, children, role = 'dialog', wide = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      const target = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
      target?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  // The browser keeps the page behind inert, but Tab from the last control would leave for the
  // browser's own toolbar; wrapping keeps keyboard users inside the dialog until they close it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.offsetParent !== null);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const onCancel = (event: Event) => {
    event.preventDefault();
    onClose();
  };

  return (
    <dialog ref={ref} class={wide ? 'dialog dialog-wide' : 'dialog'} role={role} aria-labelledby={titleId} aria-modal="true" onCancel={onCancel} onKeyDown={onKeyDown}>
      {/* The title stays while the dialog closes, so it never has an open moment without a name. */}
      <div class="dialog-body">
        <h2 id={titleId} class="dialog-title">
          {title}
        </h2>
        {open && children}
      </div>
    </dialog>
  );
}

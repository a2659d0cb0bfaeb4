import type { ComponentChildren } from 'preact';

/** A table row's small action button; `label` names the row too, for those who hear the button out of its row. */
export function RowButton({ onClick, label, children }: { onClick: () => void; label: string; children: ComponentChildren }) {
  return (
    <button type="button" class="button button-small" onClick={onClick} aria-label={label}>
      {children}
    </button>
  );
}

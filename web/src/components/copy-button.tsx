import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';

/** Copies text to the clipboard and says so in a live region; falls back to selecting the text. */
export function CopyButton({ text, label, fallbackTargetId }: { text: string; label: string; fallbackTargetId?: string }) {
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(t('console.copy.copied'));
    } catch {
      const target = fallbackTargetId ? document.getElementById(fallbackTargetId) : null;
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
        target.focus();
        target.select();
        setStatus(t('console.copy.selected'));
      } else {
        setStatus(t('console.copy.unavailable'));
      }
    }
  };
  return (
    <span class="copy">
      <button type="button" class="button button-small" onClick={copy}>
        {label}
      </button>
      <span class="copy-status small muted" role="status">
        {status}
      </span>
    </span>
  );
}

import { useState } from 'preact/hooks';
import type { ApiError } from '../api/client.ts';
import type { PendingRetry } from '../use-conflict-retry.ts';
import { toApiError } from '../use-resource.ts';
import { ConflictNotice } from './conflict-notice.tsx';
import { FormError } from './form-error.tsx';
import { t } from '../i18n.ts';

/** The conflict notice of a one-click action, with its retry on the latest version. */
export function RetryNotice({ pending, subject }: { pending: PendingRetry | null; subject: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  if (!pending) return null;
  const retry = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await pending.retry();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <ConflictNotice
        subject={subject}
        changes={pending.changes}
        busy={busy}
        reapplyLabel={t('console.retry.tryAgain', { action: pending.label })}
        onReapply={() => void retry()}
        onDiscard={pending.dismiss}
      />
      <FormError error={error} />
    </>
  );
}

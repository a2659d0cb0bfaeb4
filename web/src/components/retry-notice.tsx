import type { PendingRetry } from '../use-conflict-retry.ts';
import { useSubmit } from '../use-submit.ts';
import { ConflictNotice } from './conflict-notice.tsx';
import { FormError } from './form-error.tsx';
import { t } from '../i18n.ts';

/** The conflict notice of a one-click action, with its retry on the latest version. */
export function RetryNotice({ pending, subject }: { pending: PendingRetry | null; subject: string }) {
  const retrying = useSubmit();
  if (!pending) return null;
  const retry = retrying.submit(pending.retry);
  return (
    <>
      <ConflictNotice
        subject={subject}
        changes={pending.changes}
        busy={retrying.busy}
        reapplyLabel={t('console.retry.tryAgain', { action: pending.label })}
        onReapply={() => void retry()}
        onDiscard={pending.dismiss}
      />
      <FormError error={retrying.error} />
    </>
  );
}

import type { ApiError } from '../api/client.ts';
import { t } from '../i18n.ts';

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading muted" role="status">
      {t('console.loading', { what })}
    </p>
  );
}

export function LoadError({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  return (
    <div class="alert alert-error" role="alert">
      <p>{error.message}</p>
      <button type="button" class="button button-small" onClick={onRetry}>
        {t('console.tryAgain')}
      </button>
    </div>
  );
}

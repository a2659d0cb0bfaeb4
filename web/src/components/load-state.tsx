import type { ApiError } from '../api/client.ts';
import type { Resource } from '../use-resource.ts';
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

/** What a page shows of a resource before it has data: the load's error with a retry, or that it is loading. */
export function LoadState({ resource, what }: { resource: Pick<Resource<unknown>, 'data' | 'error' | 'reload'>; what: string }) {
  if (resource.error) return <LoadError error={resource.error} onRetry={() => void resource.reload()} />;
  if (resource.data === undefined) return <Loading what={what} />;
  return null;
}

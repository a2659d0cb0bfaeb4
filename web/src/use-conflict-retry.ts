import { useState } from 'preact/hooks';
import { describeChanges, type Change, type FieldSpec } from './changes.ts';
import { toApiError } from './use-resource.ts';

export interface PendingRetry {
  label: string;
  changes: Change[];
  retry: () => Promise<void>;
  dismiss: () => void;
}

/**
 * For one-click writes under optimistic locking (disable, rotate, revoke, member changes): when one
 * meets 409 version_conflict, the latest version is fetched and shown, and the action can be retried on it.
 */
export function useConflictRetry<R>(options: { fetchLatest: () => Promise<R>; onNewVersion: (resource: R) => void; fields: FieldSpec<R>[] }) {
  const [pending, setPending] = useState<PendingRetry | null>(null);

  async function run<T>(label: string, base: R, action: (base: R) => Promise<T>): Promise<T | undefined> {
    try {
      const result = await action(base);
      setPending(null);
      return result;
    } catch (caught) {
      if (toApiError(caught).code !== 'version_conflict') throw caught;
      const latest = await options.fetchLatest();
      options.onNewVersion(latest);
      setPending({
        label,
        changes: describeChanges(base, latest, options.fields),
        retry: async () => {
          await run(label, latest, action);
        },
        dismiss: () => setPending(null),
      });
      return undefined;
    }
  }

  return { pending, run };
}

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

  /** Runs the action on `base`; `onDone` follows its success, whether at once or on a retry. */
  async function run<T>(label: string, base: R, action: (base: R) => Promise<T>, onDone: (result: T) => void | Promise<void>): Promise<boolean> {
    let result: T;
    try {
      result = await action(base);
    } catch (caught) {
      if (toApiError(caught).code !== 'version_conflict') throw caught;
      const latest = await options.fetchLatest();
      options.onNewVersion(latest);
      setPending({
        label,
        changes: describeChanges(base, latest, options.fields),
        retry: async () => {
          await run(label, latest, action, onDone);
        },
        dismiss: () => setPending(null),
      });
      return false;
    }
    setPending(null);
    await onDone(result);
    return true;
  }

  return { pending, run };
}

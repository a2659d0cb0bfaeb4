import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from './api/client.ts';
import { describeChanges, type Change, type FieldSpec } from './changes.ts';
import { toApiError } from './use-resource.ts';

interface EditorOptions<R, D> {
  /** The latest version of the resource the page knows. */
  resource: R;
  toDraft: (resource: R) => D;
  /** Sends the draft with the version of `base`; returns the saved resource. */
  save: (draft: D, base: R) => Promise<R>;
  fetchLatest: () => Promise<R>;
  /** Called with every newer version: after a save, and the one fetched after a conflict. */
  onNewVersion: (resource: R) => void;
  /** The fields this editor changes: a newer version that leaves them alone is taken as the base silently. */
  ownFields: FieldSpec<R>[];
  /** The fields shown when a conflict is explained. */
  conflictFields: FieldSpec<R>[];
}

export interface VersionedEditor<D> {
  editing: boolean;
  draft: D;
  setDraft: (draft: D) => void;
  start: () => void;
  cancel: () => void;
  submit: () => Promise<boolean>;
  busy: boolean;
  error: ApiError | undefined;
  /** Set after a save met 409 version_conflict: what changed between the version edited and the latest. */
  conflict: Change[] | null;
  reapply: () => Promise<boolean>;
  discard: () => void;
}

/**
 * Editing under optimistic locking: the edit starts from a base version; a save that meets
 * 409 version_conflict fetches the latest version, says what changed, and lets the person put
 * their draft on top of it (reapply) or start again from it (discard).
 */
export function useVersionedEditor<R, D>(options: EditorOptions<R, D>): VersionedEditor<D> {
  const { resource, toDraft } = options;
  const [editing, setEditing] = useState(false);
  const [base, setBase] = useState<R>(resource);
  const [draft, setDraft] = useState<D>(() => toDraft(resource));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [conflict, setConflict] = useState<{ before: R; latest: R } | null>(null);

  useEffect(() => {
    if (!editing) {
      setBase(resource);
      return;
    }
    if (!conflict && describeChanges(base, resource, options.ownFields).length === 0) setBase(resource);
  }, [resource]);

  const saveFrom = async (from: R): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      const saved = await options.save(draft, from);
      options.onNewVersion(saved);
      setBase(saved);
      setConflict(null);
      setEditing(false);
      return true;
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code !== 'version_conflict') {
        setError(apiError);
        return false;
      }
      try {
        const latest = await options.fetchLatest();
        options.onNewVersion(latest);
        setConflict({ before: from, latest });
      } catch (fetchError) {
        setError(toApiError(fetchError));
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  const reapply = async (): Promise<boolean> => {
    if (!conflict) return false;
    setBase(conflict.latest);
    return saveFrom(conflict.latest);
  };

  return {
    editing,
    draft,
    setDraft,
    start: () => {
      setBase(resource);
      setDraft(toDraft(resource));
      setError(undefined);
      setConflict(null);
      setEditing(true);
    },
    cancel: () => {
      setEditing(false);
      setError(undefined);
      setConflict(null);
    },
    // Saving again after a conflict means saving on top of the latest version.
    submit: () => (conflict ? reapply() : saveFrom(base)),
    busy,
    error,
    conflict: conflict ? describeChanges(conflict.before, conflict.latest, options.conflictFields) : null,
    reapply,
    discard: () => {
      if (!conflict) return;
      setBase(conflict.latest);
      setDraft(toDraft(conflict.latest));
      setConflict(null);
    },
  };
}

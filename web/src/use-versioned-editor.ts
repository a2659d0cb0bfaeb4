import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from './api/client.ts';
import { describeChanges, formatValue, type Change, type FieldSpec } from './changes.ts';
import { threeWayMerge, type ListFields } from './three-way-merge.ts';
import { toApiError } from './use-resource.ts';
import { t } from './i18n.ts';

interface EditorOptions<R, D extends object> {
  /** The latest version of the resource the page knows. */
  resource: R;
  /** The draft's fields are named like the resource's fields they edit (see `ownFields`). */
  toDraft: (resource: R) => D;
  /** The draft as the values it would save, for telling which fields the person changed; the draft itself when omitted. */
  comparable?: (draft: D) => Record<keyof D, unknown>;
  /** List fields that, when both sides changed them, take both sides' additions and removals (see `mergeList`) instead of clashing. */
  listFields?: ListFields<D>;
  /** Sends the draft with the version of `base`; returns the saved resource. */
  save: (draft: D, base: R) => Promise<R>;
  fetchLatest: () => Promise<R>;
  /** Called with every newer version: after a save, and the one fetched after a conflict. */
  onNewVersion: (resource: R) => void;
  /** The fields this editor changes: a newer version that leaves them alone is taken as the base silently. Their labels name clashes. */
  ownFields: FieldSpec<R>[];
  /** The fields shown when a conflict is explained. */
  conflictFields: FieldSpec<R>[];
}

/** A field both the person and someone else changed since the person started editing. */
export interface FieldClash {
  label: string;
  mine: string;
  theirs: string;
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
  /** With `conflict`: the fields changed on both sides, where the draft still holds the person's value. */
  clashes: FieldClash[];
  reapply: () => Promise<boolean>;
  discard: () => void;
}

/**
 * Editing under optimistic locking: the edit starts from a base version; a save that meets
 * 409 version_conflict fetches the latest version, says what changed, and merges the draft onto it
 * (three-way, field by field: only the fields the person changed keep their values, the rest take
 * the latest ones, and fields both changed are named). The person then saves that (reapply) or
 * starts again from the latest version (discard).
 */
export function useVersionedEditor<R, D extends object>(options: EditorOptions<R, D>): VersionedEditor<D> {
  const { resource, toDraft } = options;
  const [editing, setEditing] = useState(false);
  const [base, setBase] = useState<R>(resource);
  const [draft, setDraft] = useState<D>(() => toDraft(resource));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [conflict, setConflict] = useState<{ before: R; latest: R; clashes: FieldClash[] } | null>(null);

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
        setConflict(mergeOnto(from, latest));
      } catch (fetchError) {
        setError(toApiError(fetchError));
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  const mergeOnto = (from: R, latest: R) => {
    const comparable = options.comparable ?? ((record: D) => record as Record<keyof D, unknown>);
    const theirs = toDraft(latest);
    const { merged, conflicts } = threeWayMerge(toDraft(from), draft, theirs, comparable, options.listFields);
    const clashes = conflicts.map((key) => {
      const field = options.ownFields.find((own) => (own.key as string) === key);
      const format = field?.format ?? formatValue;
      return { label: field ? t(field.label) : key, mine: format(comparable(draft)[key]), theirs: format(comparable(theirs)[key]) };
    });
    setDraft(merged);
    return { before: from, latest, clashes };
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
    clashes: conflict?.clashes ?? [],
    reapply,
    discard: () => {
      if (!conflict) return;
      setBase(conflict.latest);
      setDraft(toDraft(conflict.latest));
      setConflict(null);
    },
  };
}

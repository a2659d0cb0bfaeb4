import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Resource } from '../use-resource.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { LoadState } from './load-state.tsx';
import { PageHeader } from './page-header.tsx';
import { t } from '../i18n.ts';

interface NamedRecord {
  name: string;
  displayName: string;
}

/** The catalogue keys of a page of named records: `${texts}.title`, `.intro`, `.add`, `.added` and so on. */
type RecordTexts = 'console.groups' | 'console.identityProviders';

/** The record a dialog adds (`record` null) or changes; null while no dialog is open. */
export type Editing<T> = { record: T | null } | null;

export interface RecordActions<T> {
  edit: (record: T) => void;
  askToRemove: (record: T) => void;
}

interface NamedRecordsPageProps<T extends NamedRecord> {
  texts: RecordTexts;
  records: Resource<T[]>;
  /** Where an added record goes: in this order, or at the end (the server's order of creation). */
  compare?: (a: T, b: T) => number;
  remove: (record: T) => Promise<void>;
  /** The table of the records (never empty), with their edit and remove buttons. */
  table: (records: T[], actions: RecordActions<T>) => ComponentChildren;
  /** The dialog that adds or changes a record; `saved` takes its answer. */
  dialog: (editing: Editing<T>, close: () => void, saved: (record: T) => void) => ComponentChildren;
}

/**
 * An administrators' page of named records (groups, identity providers): added and changed in a
 * dialog, each change said in the page's status line, each removal asked first.
 */
export function NamedRecordsPage<T extends NamedRecord>({ texts, records, compare, remove, table, dialog }: NamedRecordsPageProps<T>) {
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState<Editing<T>>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  const list = records.data ?? [];

  const saved = (record: T) => {
    const known = list.some((r) => r.name === record.name);
    const next = known ? list.map((r) => (r.name === record.name ? record : r)) : [...list, record];
    records.set(compare && !known ? next.sort(compare) : next);
    setNotice(t(known ? `${texts}.saved` : `${texts}.added`, { name: record.displayName }));
  };
  const removeAsked = async (record: T) => {
    await remove(record);
    records.set(list.filter((r) => r.name !== record.name));
    setNotice(t(`${texts}.removed`, { name: record.displayName }));
  };

  return (
    <>
      <PageHeader
        title={t(`${texts}.title`)}
        actions={
          <button type="button" class="button button-primary" onClick={() => setEditing({ record: null })}>
            {t(`${texts}.add`)}
          </button>
        }
      >
        <p class="muted">{t(`${texts}.intro`)}</p>
      </PageHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={records} what={t(`${texts}.loading`)} />
      {records.data && list.length === 0 && <p class="muted">{t(`${texts}.none`)}</p>}
      {list.length > 0 && table(list, { edit: (record) => setEditing({ record }), askToRemove: setRemoving })}

      {dialog(editing, () => setEditing(null), saved)}
      <ConfirmDialog
        open={removing !== null}
        title={t(`${texts}.removeTitle`)}
        confirmLabel={t(`${texts}.removeConfirm`)}
        danger
        onConfirm={() => (removing ? removeAsked(removing) : Promise.resolve())}
        onClose={() => setRemoving(null)}
      >
        <p>
          <strong>{removing?.displayName}</strong> ({removing?.name}): {t(`${texts}.removeBody`)}
        </p>
      </ConfirmDialog>
    </>
  );
}

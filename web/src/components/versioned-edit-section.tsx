import type { ComponentChildren } from 'preact';
import type { VersionedEditor } from '../use-versioned-editor.ts';
import { ConflictNotice } from './conflict-notice.tsx';
import { FormError } from './form-error.tsx';
import { t } from '../i18n.ts';

interface VersionedEditSectionProps<D> {
  title: string;
  /** The catalogue keys of the section's controls: `${texts}.edit` (the button that starts editing), `.editLabel` (the form's name), `.save`. */
  texts: 'console.clientConfig' | 'console.clientDetails' | 'console.settings';
  /** What a conflict notice names as edited, e.g. "this client". */
  subject: string;
  editor: VersionedEditor<D>;
  /** Whether the person may edit at all. */
  writable: boolean;
  /** Problems the page found itself: while there are any, submitting sends nothing. */
  blocked?: boolean;
  /** The save button waits until there are no such problems (instead of the fields alone saying so). */
  disableSaveWhileBlocked?: boolean;
  /** What the section shows while not editing. */
  facts: ComponentChildren;
  /** Below the fields, above the buttons. */
  note?: string;
  /** The form's fields. */
  children: ComponentChildren;
}

/**
 * A card that shows a versioned resource's fields and, for those who may, edits them under optimistic
 * locking (useVersionedEditor): a save that meets 409 version_conflict shows what changed meanwhile and
 * the merged draft, to save on top of the latest version or start again from it.
 */
export function VersionedEditSection<D>({ texts, title, subject, editor, writable, blocked = false, disableSaveWhileBlocked = false, facts, note, children }: VersionedEditSectionProps<D>) {
  const submit = (event: Event) => {
    event.preventDefault();
    if (!blocked) void editor.submit();
  };

  return (
    <section class="card section-card">
      <div class="section-title-row">
        <h3>{title}</h3>
        {writable && !editor.editing && (
          <button type="button" class="button button-small" onClick={editor.start}>
            {t(`${texts}.edit`)}
          </button>
        )}
      </div>
      {editor.editing ? (
        <form onSubmit={submit} noValidate aria-label={t(`${texts}.editLabel`)}>
          {editor.conflict && (
            <ConflictNotice subject={subject} changes={editor.conflict} clashes={editor.clashes} busy={editor.busy} onReapply={() => void editor.reapply()} onDiscard={editor.discard} />
          )}
          <FormError error={editor.error} fieldsShown />
          {children}
          {note && <p class="small muted">{note}</p>}
          <div class="actions form-actions">
            <button type="submit" class="button button-primary" disabled={editor.busy || (disableSaveWhileBlocked && blocked)}>
              {editor.busy ? t('console.common.saving') : t(`${texts}.save`)}
            </button>
            <button type="button" class="button" onClick={editor.cancel}>
              {t('console.common.cancel')}
            </button>
          </div>
        </form>
      ) : (
        facts
      )}
    </section>
  );
}

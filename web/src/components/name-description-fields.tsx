import type { VersionedEditor } from '../use-versioned-editor.ts';
import { TextAreaField, TextField } from './field.tsx';
import { t } from '../i18n.ts';

interface NameDescriptionFieldsProps<K extends string, D extends Record<K | 'description', string>> {
  editor: VersionedEditor<D>;
  /** The draft's field that holds the name (`name` of a project, `displayName` of a client). */
  nameField: K;
  nameLabel: string;
  rows: number;
  /** Problems the page found before sending; the server's own answer for the field wins. */
  nameProblem?: string | undefined;
  descriptionProblem?: string | undefined;
}

/** The name and description of a versioned resource, edited in its VersionedEditSection. */
export function NameDescriptionFields<K extends string, D extends Record<K | 'description', string>>({ editor, nameField, nameLabel, rows, nameProblem, descriptionProblem }: NameDescriptionFieldsProps<K, D>) {
  const { draft, setDraft, error } = editor;
  return (
    <>
      <TextField label={nameLabel} value={draft[nameField]} onValue={(value) => setDraft({ ...draft, [nameField]: value })} error={error?.fieldErrors[nameField] ?? nameProblem} />
      <TextAreaField
        label={t('console.clientDetails.description')}
        class="prose-input"
        rows={rows}
        value={draft.description}
        onValue={(description) => setDraft({ ...draft, description })}
        error={error?.fieldErrors.description ?? descriptionProblem}
      />
    </>
  );
}

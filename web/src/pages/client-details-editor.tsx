import { api, unwrap } from '../api/client.ts';
import type { Client } from '../api/types.ts';
import { descriptionProblem, displayNameProblem } from '../client-config.ts';
import { CLIENT_ALL_FIELDS, CLIENT_DETAIL_FIELDS } from '../client-fields.ts';
import { ConflictNotice } from '../components/conflict-notice.tsx';
import { TextAreaField, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { Time } from '../components/time.tsx';
import { useVersionedEditor } from '../use-versioned-editor.ts';
import { clientParams, fetchClient, type ClientSectionProps } from './client-editing.ts';

const toDraft = (client: Client) => ({ displayName: client.displayName, description: client.description });
const comparable = (draft: ReturnType<typeof toDraft>) => ({ displayName: draft.displayName.trim(), description: draft.description.trim() });

/** The client's name and description, as people see them on the consent page. */
export function ClientDetailsEditor({ client, writable, onNewVersion }: ClientSectionProps) {
  const editor = useVersionedEditor({
    resource: client,
    toDraft,
    comparable,
    save: (draft, base) =>
      unwrap(
        api.PATCH('/projects/{projectId}/clients/{clientId}', {
          params: clientParams(base),
          body: { clientVersion: base.clientVersion, displayName: draft.displayName.trim(), description: draft.description.trim() },
        }),
      ).then((r) => r.client),
    fetchLatest: () => fetchClient(client.projectId, client.clientId),
    onNewVersion,
    ownFields: CLIENT_DETAIL_FIELDS,
    conflictFields: CLIENT_ALL_FIELDS,
  });
  const nameProblem = editor.editing ? displayNameProblem(editor.draft.displayName) : undefined;
  const descProblem = editor.editing ? descriptionProblem(editor.draft.description) : undefined;

  const submit = (event: Event) => {
    event.preventDefault();
    if (!nameProblem && !descProblem) void editor.submit();
  };

  return (
    <section class="card section-card">
      <div class="section-title-row">
        <h3>Details</h3>
        {writable && !editor.editing && (
          <button type="button" class="button button-small" onClick={editor.start}>
            Edit details
          </button>
        )}
      </div>
      {!editor.editing && (
        <dl class="facts">
          <div>
            <dt>Display name</dt>
            <dd>{client.displayName}</dd>
          </div>
          <div>
            <dt>Description</dt>
            <dd>{client.description || <span class="muted">none</span>}</dd>
          </div>
          <div>
            <dt>Registered</dt>
            <dd>
              <Time value={client.createdAt} />
            </dd>
          </div>
        </dl>
      )}
      {editor.editing && (
        <form onSubmit={submit} noValidate aria-label="Edit client details">
          {editor.conflict && (
            <ConflictNotice
              subject="this client"
              changes={editor.conflict}
              clashes={editor.clashes}
              busy={editor.busy}
              onReapply={() => void editor.reapply()}
              onDiscard={editor.discard}
            />
          )}
          <FormError error={editor.error} fieldsShown />
          <TextField
            label="Display name"
            value={editor.draft.displayName}
            onValue={(displayName) => editor.setDraft({ ...editor.draft, displayName })}
            error={editor.error?.fieldErrors.displayName ?? nameProblem}
          />
          <TextAreaField
            label="Description"
            class="prose-input"
            rows={2}
            value={editor.draft.description}
            onValue={(description) => editor.setDraft({ ...editor.draft, description })}
            error={editor.error?.fieldErrors.description ?? descProblem}
          />
          <div class="actions form-actions">
            <button type="submit" class="button button-primary" disabled={editor.busy}>
              {editor.busy ? 'Saving…' : 'Save details'}
            </button>
            <button type="button" class="button" onClick={editor.cancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

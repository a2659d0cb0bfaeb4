import { useState } from 'preact/hooks';
import { CAPABILITY_DESCRIPTIONS } from '../../../src/domain/roles.ts';
import { api, unwrap } from '../api/client.ts';
import type { Project } from '../api/types.ts';
import type { FieldSpec } from '../changes.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { ConflictNotice } from '../components/conflict-notice.tsx';
import { TextAreaField, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { Time } from '../components/time.tsx';
import { can, roleLabel } from '../roles.ts';
import { useConflictRetry } from '../use-conflict-retry.ts';
import { useVersionedEditor } from '../use-versioned-editor.ts';
import type { ProjectContext } from './project-context.ts';

const EDITED_FIELDS: FieldSpec<Project>[] = [
  { key: 'name', label: 'Name' },
  { key: 'description', label: 'Description' },
];
const ALL_FIELDS: FieldSpec<Project>[] = [...EDITED_FIELDS, { key: 'status', label: 'Status' }];

export function ProjectSettingsPanel({ project, setProject }: ProjectContext) {
  const params = { path: { projectId: project.projectId } };
  const fetchLatest = () => unwrap(api.GET('/projects/{projectId}', { params })).then((r) => r.project);
  const editor = useVersionedEditor({
    resource: project,
    toDraft: (p: Project) => ({ name: p.name, description: p.description }),
    comparable: (draft) => ({ name: draft.name.trim(), description: draft.description.trim() }),
    save: (draft, base) =>
      unwrap(
        api.PATCH('/projects/{projectId}', { params, body: { expectedProjectVersion: base.version, name: draft.name.trim(), description: draft.description.trim() } }),
      ).then((r) => r.project),
    fetchLatest,
    onNewVersion: setProject,
    ownFields: EDITED_FIELDS,
    conflictFields: ALL_FIELDS,
  });
  const conflicts = useConflictRetry({ fetchLatest, onNewVersion: setProject, fields: ALL_FIELDS });
  const [confirmingStatus, setConfirmingStatus] = useState(false);
  const editable = can(project, 'manage_project');
  // Un-archiving is the one change an archived project accepts, from its owner or an administrator.
  const mayChangeStatus = project.capabilities.includes('manage_project');
  const archiving = project.status === 'active';
  const nameProblem = editor.editing && editor.draft.name.trim() === '' ? 'A project needs a name.' : undefined;

  const changeStatus = async () => {
    await conflicts.run(
      archiving ? 'archive the project' : 'un-archive the project',
      project,
      (base) =>
        unwrap(api.PATCH('/projects/{projectId}', { params, body: { expectedProjectVersion: base.version, status: archiving ? 'archived' : 'active' } })).then(
          (r) => r.project,
        ),
      setProject,
    );
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (!nameProblem) void editor.submit();
  };

  return (
    <section>
      <PanelHeader title="Settings" />
      <RetryNotice pending={conflicts.pending} subject="this project" />
      <div class="settings-grid">
        <section class="card section-card">
          <div class="section-title-row">
            <h3>Project</h3>
            {editable && !editor.editing && (
              <button type="button" class="button button-small" onClick={editor.start}>
                Edit name and description
              </button>
            )}
          </div>
          {editor.editing ? (
            <form onSubmit={submit} noValidate aria-label="Edit project">
              {editor.conflict && (
                <ConflictNotice
                  subject="this project"
                  changes={editor.conflict}
                  clashes={editor.clashes}
                  busy={editor.busy}
                  onReapply={() => void editor.reapply()}
                  onDiscard={editor.discard}
                />
              )}
              <FormError error={editor.error} fieldsShown />
              <TextField
                label="Name"
                value={editor.draft.name}
                onValue={(name) => editor.setDraft({ ...editor.draft, name })}
                error={editor.error?.fieldErrors.name ?? nameProblem}
              />
              <TextAreaField
                label="Description"
                class="prose-input"
                rows={3}
                value={editor.draft.description}
                onValue={(description) => editor.setDraft({ ...editor.draft, description })}
                error={editor.error?.fieldErrors.description}
              />
              <div class="actions form-actions">
                <button type="submit" class="button button-primary" disabled={editor.busy}>
                  {editor.busy ? 'Saving…' : 'Save'}
                </button>
                <button type="button" class="button" onClick={editor.cancel}>
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <dl class="facts">
              <div>
                <dt>Name</dt>
                <dd>{project.name}</dd>
              </div>
              <div>
                <dt>Description</dt>
                <dd>{project.description || <span class="muted">none</span>}</dd>
              </div>
              <div>
                <dt>Project ID</dt>
                <dd>
                  <code>{project.projectId}</code>
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>
                  <Time value={project.createdAt} />
                </dd>
              </div>
              <div>
                <dt>Last changed</dt>
                <dd>
                  <Time value={project.updatedAt} /> <span class="muted small">(version {project.version})</span>
                </dd>
              </div>
            </dl>
          )}
        </section>

        <section class="card section-card">
          <h3>Your access</h3>
          <p>
            You are <strong>{roleLabel(project) === 'administrator' ? 'an administrator (not a member)' : `the project's ${roleLabel(project)}`}</strong>. You can:
          </p>
          <ul>
            {project.capabilities.map((capability) => (
              <li key={capability}>{CAPABILITY_DESCRIPTIONS[capability]}</li>
            ))}
          </ul>
        </section>

        {mayChangeStatus && (
          <section class={archiving ? 'card section-card danger-zone' : 'card section-card'}>
            <h3>{archiving ? 'Archive the project' : 'Un-archive the project'}</h3>
            {archiving ? (
              <p>
                Archiving makes the project read-only and <strong>suspends all its clients</strong>: Sesame refuses their sign-ins and token requests
                until the project is un-archived.
              </p>
            ) : (
              <p>Un-archiving makes the project editable again, and its active clients can sign people in again at once.</p>
            )}
            <button type="button" class={archiving ? 'button button-danger' : 'button button-primary'} onClick={() => setConfirmingStatus(true)}>
              {archiving ? 'Archive project' : 'Un-archive project'}
            </button>
          </section>
        )}
      </div>

      <ConfirmDialog
        open={confirmingStatus}
        title={archiving ? 'Archive this project?' : 'Un-archive this project?'}
        confirmLabel={archiving ? 'Archive project' : 'Un-archive project'}
        danger={archiving}
        onConfirm={changeStatus}
        onClose={() => setConfirmingStatus(false)}
      >
        {archiving ? (
          <>
            <p>
              <strong>Every client of {project.name} is suspended at once:</strong> people cannot sign in to them and their token requests are refused.
            </p>
            <p>The project becomes read-only. You can un-archive it later, and its clients work again.</p>
          </>
        ) : (
          <p>{project.name} becomes editable again, and its active clients can sign people in at once.</p>
        )}
      </ConfirmDialog>
    </section>
  );
}

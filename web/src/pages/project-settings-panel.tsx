import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Project } from '../api/types.ts';
import type { FieldSpec } from '../changes.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { NameDescriptionFields } from '../components/name-description-fields.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { Time } from '../components/time.tsx';
import { VersionedEditSection } from '../components/versioned-edit-section.tsx';
import { can, roleLabel, roleName } from '../roles.ts';
import { useConflictRetry } from '../use-conflict-retry.ts';
import { navigate } from '../router.ts';
import { useVersionedEditor } from '../use-versioned-editor.ts';
import type { ProjectContext } from './project-context.ts';
import { t, tWith } from '../i18n.ts';

const EDITED_FIELDS: FieldSpec<Project>[] = [
  { key: 'name', label: 'console.clients.name' },
  { key: 'description', label: 'console.clientDetails.description' },
];
const CAPABILITY_KEYS = {
  read: 'console.capability.read',
  write_clients: 'console.capability.write_clients',
  manage_members: 'console.capability.manage_members',
  manage_project: 'console.capability.manage_project',
} as const;

const ALL_FIELDS: FieldSpec<Project>[] = [...EDITED_FIELDS, { key: 'status', label: 'console.clients.status' }];

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
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const editable = can(project, 'manage_project');
  // Un-archiving is the one change an archived project accepts, from its owner or an administrator.
  const mayChangeStatus = project.capabilities.includes('manage_project');
  const archiving = project.status === 'active';
  const nameProblem = editor.editing && editor.draft.name.trim() === '' ? t('console.createProject.nameMissing') : undefined;

  const changeStatus = async () => {
    await conflicts.run(
      t(archiving ? 'console.settings.archiveAction' : 'console.settings.unarchiveAction'),
      project,
      (base) =>
        unwrap(api.PATCH('/projects/{projectId}', { params, body: { expectedProjectVersion: base.version, status: archiving ? 'archived' : 'active' } })).then(
          (r) => r.project,
        ),
      setProject,
    );
  };
  const deleteProject = async () => {
    await conflicts.run(
      t('console.settings.deleteAction'),
      project,
      async (base) => {
        await unwrap(api.DELETE('/projects/{projectId}', { params, body: { expectedProjectVersion: base.version } }));
      },
      () => navigate('/'),
    );
  };

  return (
    <section>
      <PanelHeader title={t('console.project.tab.settings')} />
      <RetryNotice pending={conflicts.pending} subject={t('console.members.thisProject')} />
      <div class="settings-grid">
        <VersionedEditSection
          title={t('console.settings.project')}
          texts="console.settings"
          subject={t('console.members.thisProject')}
          editor={editor}
          writable={editable}
          blocked={nameProblem !== undefined}
          facts={
            <dl class="facts">
              <div>
                <dt>{t('console.clients.name')}</dt>
                <dd>{project.name}</dd>
              </div>
              <div>
                <dt>{t('console.clientDetails.description')}</dt>
                <dd>{project.description || <span class="muted">{t('console.common.none')}</span>}</dd>
              </div>
              <div>
                <dt>{t('console.settings.projectId')}</dt>
                <dd>
                  <code>{project.projectId}</code>
                </dd>
              </div>
              <div>
                <dt>{t('console.settings.created')}</dt>
                <dd>
                  <Time value={project.createdAt} />
                </dd>
              </div>
              <div>
                <dt>{t('console.settings.lastChanged')}</dt>
                <dd>
                  <Time value={project.updatedAt} /> <span class="muted small">{t('console.settings.version', { version: project.version })}</span>
                </dd>
              </div>
            </dl>
          }
        >
          <NameDescriptionFields editor={editor} nameField="name" nameLabel={t('console.clients.name')} rows={3} nameProblem={nameProblem} />
        </VersionedEditSection>

        <section class="card section-card">
          <h3>{t('console.settings.access')}</h3>
          <p>
            {tWith('console.settings.youAre', { role: <strong>{roleLabel(project) === 'administrator' ? t('console.settings.adminNotMember') : t('console.settings.projectRole', { role: roleName(roleLabel(project)) })}</strong> })}
          </p>
          <ul>
            {project.capabilities.map((capability) => (
              <li key={capability}>{t(CAPABILITY_KEYS[capability])}</li>
            ))}
          </ul>
        </section>

        {mayChangeStatus && (
          <section class={archiving ? 'card section-card danger-zone' : 'card section-card'}>
            <h3>{t(archiving ? 'console.settings.archiveTitle' : 'console.settings.unarchiveTitle')}</h3>
            {archiving ? (
              <p>{tWith('console.settings.archiveText', { suspends: <strong>{t('console.settings.suspends')}</strong> })}</p>
            ) : (
              <p>{t('console.settings.unarchiveText')}</p>
            )}
            <button type="button" class={archiving ? 'button button-danger' : 'button button-primary'} onClick={() => setConfirmingStatus(true)}>
              {t(archiving ? 'console.settings.archive' : 'console.settings.unarchive')}
            </button>
          </section>
        )}
        {mayChangeStatus && !archiving && (
          <section class="card section-card danger-zone">
            <h3>{t('console.settings.deleteTitle')}</h3>
            <p>{t('console.settings.deleteText')}</p>
            <button type="button" class="button button-danger" onClick={() => setConfirmingDelete(true)}>
              {t('console.settings.delete')}
            </button>
          </section>
        )}
      </div>

      <ConfirmDialog
        open={confirmingStatus}
        title={t(archiving ? 'console.settings.archiveConfirmTitle' : 'console.settings.unarchiveConfirmTitle')}
        confirmLabel={t(archiving ? 'console.settings.archive' : 'console.settings.unarchive')}
        danger={archiving}
        onConfirm={changeStatus}
        onClose={() => setConfirmingStatus(false)}
      >
        {archiving ? (
          <>
            <p>
              <strong>{t('console.settings.everyClient', { name: project.name })}</strong> {t('console.settings.everyClientText')}
            </p>
            <p>{t('console.settings.readOnly')}</p>
          </>
        ) : (
          <p>{t('console.settings.unarchiveConfirmText', { name: project.name })}</p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmingDelete}
        title={t('console.settings.deleteConfirmTitle')}
        confirmLabel={t('console.settings.delete')}
        danger
        onConfirm={deleteProject}
        onClose={() => setConfirmingDelete(false)}
      >
        <p>{tWith('console.settings.deleteConfirmText', { name: <strong>{project.name}</strong> })}</p>
      </ConfirmDialog>
    </section>
  );
}

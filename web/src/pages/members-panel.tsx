import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { ROLE_DESCRIPTIONS } from '../../../src/domain/roles.ts';
import { api, unwrap } from '../api/client.ts';
import type { AssignableRole, Member, Project } from '../api/types.ts';
import type { FieldSpec } from '../changes.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { Time } from '../components/time.tsx';
import { can, ROLE_TONE } from '../roles.ts';
import { sessionUser } from '../session.ts';
import { useConflictRetry } from '../use-conflict-retry.ts';
import { useResource } from '../use-resource.ts';
import { AddMemberForm } from './add-member-form.tsx';
import { ChangeRoleDialog } from './change-role-dialog.tsx';
import type { ProjectContext } from './project-context.ts';

export interface MembersSnapshot {
  project: Project;
  members: Member[];
}

const SNAPSHOT_FIELDS: FieldSpec<MembersSnapshot>[] = [
  { key: 'project', label: 'Project', format: (p) => `${(p as Project).name} (${(p as Project).status})` },
  { key: 'members', label: 'Members', format: (m) => (m as Member[]).map((member) => `${member.account} (${member.role})`).join(', ') },
];

type PendingAction = { kind: 'remove' | 'transfer' | 'role'; member: Member } | null;

export function MembersPanel({ project, setProject }: ProjectContext) {
  const inProject = { path: { projectId: project.projectId } };
  const fetchMembers = () => unwrap(api.GET('/projects/{projectId}/members', { params: inProject })).then((r) => r.members);
  const members = useResource(`members:${project.projectId}`, fetchMembers);
  const [action, setAction] = useState<PendingAction>(null);
  const me = sessionUser();
  const manage = can(project, 'manage_members');

  const fetchLatest = async (): Promise<MembersSnapshot> => {
    const [latestProject, latestMembers] = await Promise.all([
      unwrap(api.GET('/projects/{projectId}', { params: inProject })).then((r) => r.project),
      fetchMembers(),
    ]);
    return { project: latestProject, members: latestMembers };
  };
  const applySnapshot = (snapshot: MembersSnapshot) => {
    setProject(snapshot.project);
    members.set(snapshot.members);
  };
  const conflicts = useConflictRetry({ fetchLatest, onNewVersion: applySnapshot, fields: SNAPSHOT_FIELDS });
  const snapshot = (): MembersSnapshot => ({ project, members: members.data ?? [] });

  /** Runs a member change with the project version; afterwards shows the project and members as they now are. */
  const change = (label: string, request: (version: number) => Promise<{ project: Project }>): Promise<boolean> =>
    conflicts.run(label, snapshot(), (base) => request(base.project.version), async (result) => {
      setProject(result.project);
      await members.reload();
    });

  const addMember = (subjectId: string, account: string, role: AssignableRole) =>
    change(`add ${account} as ${role}`, (version) => unwrap(api.POST('/projects/{projectId}/members', { params: inProject, body: { subjectId, role, expectedProjectVersion: version } })));
  const changeRole = (member: Member, role: AssignableRole) =>
    change(`make ${member.account} ${role}`, (version) =>
      unwrap(
        api.PATCH('/projects/{projectId}/members/{subjectId}', {
          params: { path: { projectId: project.projectId, subjectId: member.subjectId } },
          body: { role, expectedProjectVersion: version },
        }),
      ),
    );
  const remove = (member: Member) =>
    change(`remove ${member.account}`, (version) =>
      unwrap(
        api.DELETE('/projects/{projectId}/members/{subjectId}', {
          params: { path: { projectId: project.projectId, subjectId: member.subjectId } },
          body: { expectedProjectVersion: version },
        }),
      ),
    );
  const transfer = (member: Member) =>
    change(`transfer ownership to ${member.account}`, (version) =>
      unwrap(api.POST('/projects/{projectId}/ownership/transfer', { params: inProject, body: { toSubjectId: member.subjectId, expectedProjectVersion: version } })),
    );

  return (
    <section>
      <PanelHeader title="Members">
        <p class="muted small">
          Owner: {ROLE_DESCRIPTIONS.owner}. Maintainer: {ROLE_DESCRIPTIONS.maintainer}. Viewer: {ROLE_DESCRIPTIONS.viewer}.
        </p>
      </PanelHeader>
      <RetryNotice pending={conflicts.pending} subject="this project" />
      {manage && <AddMemberForm onAdd={addMember} existing={members.data ?? []} />}
      {members.error && <LoadError error={members.error} onRetry={() => void members.reload()} />}
      {!members.data && !members.error && <Loading what={t('console.what.members')} />}
      {members.data && (
        <table class="data-table">
          <caption class="visually-hidden">Members of {project.name}</caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">Member since</th>
              {manage && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.data.map((member) => (
              <tr key={member.subjectId}>
                <th scope="row" data-label="Member">
                  {member.displayName}
                  {member.subjectId === me?.subjectId && <span class="muted"> (you)</span>}
                  <span class="block small muted">{member.account}</span>
                </th>
                <td data-label="Role">
                  <Badge tone={ROLE_TONE[member.role]}>{member.role}</Badge>
                </td>
                <td data-label="Member since">
                  <Time value={member.createdAt} />
                </td>
                {manage && (
                  <td data-label="Actions">
                    {member.role !== 'owner' && (
                      <div class="actions">
                        <button type="button" class="button button-small" onClick={() => setAction({ kind: 'role', member })} aria-label={`Change role of ${member.account}`}>
                          Change role
                        </button>
                        <button type="button" class="button button-small" onClick={() => setAction({ kind: 'transfer', member })} aria-label={`Make owner: ${member.account}`}>
                          Make owner
                        </button>
                        <button type="button" class="button button-small" onClick={() => setAction({ kind: 'remove', member })} aria-label={`Remove ${member.account}`}>
                          Remove
                        </button>
                      </div>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <ChangeRoleDialog
        member={action?.kind === 'role' ? action.member : null}
        onSave={async (member, role) => void (await changeRole(member, role))}
        onClose={() => setAction(null)}
      />
      <ConfirmDialog
        open={action?.kind === 'remove'}
        title="Remove this member?"
        confirmLabel="Remove member"
        danger
        onConfirm={async () => void (action && (await remove(action.member)))}
        onClose={() => setAction(null)}
      >
        <p>
          <strong>{action?.member.displayName}</strong> ({action?.member.account}) loses access to {project.name} at once. You can add them again later.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={action?.kind === 'transfer'}
        title="Transfer ownership?"
        confirmLabel="Transfer ownership"
        danger
        onConfirm={async () => void (action && (await transfer(action.member)))}
        onClose={() => setAction(null)}
      >
        <p>
          <strong>{action?.member.displayName}</strong> ({action?.member.account}) becomes the owner of {project.name}. The current owner becomes a maintainer.
        </p>
        <p>
          <strong>You cannot undo this yourself:</strong> only the new owner or an administrator can transfer ownership again.
        </p>
      </ConfirmDialog>
    </section>
  );
}

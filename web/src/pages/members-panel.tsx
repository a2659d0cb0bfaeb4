import { useState } from 'preact/hooks';
import { t, tWith } from '../i18n.ts';
import { api, unwrap } from '../api/client.ts';
import type { AssignableRole, Member, Project } from '../api/types.ts';
import type { FieldSpec } from '../changes.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { Time } from '../components/time.tsx';
import { RowButton } from '../components/row-button.tsx';
import { can, ROLE_TONE, roleName } from '../roles.ts';
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
  { key: 'project', label: 'console.settings.project', format: (p) => `${(p as Project).name} (${(p as Project).status})` },
  { key: 'members', label: 'console.project.tab.members', format: (m) => (m as Member[]).map((member) => `${member.account} (${member.role})`).join(', ') },
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
    change(t('console.members.addAction', { account, role: roleName(role) }), (version) => unwrap(api.POST('/projects/{projectId}/members', { params: inProject, body: { subjectId, role, expectedProjectVersion: version } })));
  const changeRole = (member: Member, role: AssignableRole) =>
    change(t('console.members.roleAction', { account: member.account, role: roleName(role) }), (version) =>
      unwrap(
        api.PATCH('/projects/{projectId}/members/{subjectId}', {
          params: { path: { projectId: project.projectId, subjectId: member.subjectId } },
          body: { role, expectedProjectVersion: version },
        }),
      ),
    );
  const remove = (member: Member) =>
    change(t('console.members.removeAction', { account: member.account }), (version) =>
      unwrap(
        api.DELETE('/projects/{projectId}/members/{subjectId}', {
          params: { path: { projectId: project.projectId, subjectId: member.subjectId } },
          body: { expectedProjectVersion: version },
        }),
      ),
    );
  const transfer = (member: Member) =>
    change(t('console.members.transferAction', { account: member.account }), (version) =>
      unwrap(api.POST('/projects/{projectId}/ownership/transfer', { params: inProject, body: { toSubjectId: member.subjectId, expectedProjectVersion: version } })),
    );

  return (
    <section>
      <PanelHeader title={t('console.project.tab.members')}>
        <p class="muted small">
          {t('console.members.roles', { owner: t('console.roleDescription.owner'), maintainer: t('console.roleDescription.maintainer'), viewer: t('console.roleDescription.viewer') })}
        </p>
      </PanelHeader>
      <RetryNotice pending={conflicts.pending} subject={t('console.members.thisProject')} />
      {manage && <AddMemberForm onAdd={addMember} existing={members.data ?? []} />}
      <LoadState resource={members} what={t('console.what.members')} />
      {members.data && (
        <DataTable caption={t('console.members.caption', { name: project.name })} columns={[t('console.members.member'), t('console.members.role'), t('console.members.since')]} actions={manage && t('console.users.actions')}>
          {members.data.map((member) => (
            <tr key={member.subjectId}>
              <th scope="row" data-label={t('console.members.member')}>
                {member.displayName}
                {member.subjectId === me?.subjectId && <span class="muted"> {t('console.users.you')}</span>}
                <span class="block small muted">{member.account}</span>
              </th>
              <td data-label={t('console.members.role')}>
                <Badge tone={ROLE_TONE[member.role]}>{roleName(member.role)}</Badge>
              </td>
              <td data-label={t('console.members.since')}>
                <Time value={member.createdAt} />
              </td>
              {manage && (
                <td data-label={t('console.users.actions')}>
                  {member.role !== 'owner' && (
                    <div class="actions">
                      <RowButton onClick={() => setAction({ kind: 'role', member })} label={t('console.members.changeRoleLabel', { account: member.account })}>
                        {t('console.members.changeRole')}
                      </RowButton>
                      <RowButton onClick={() => setAction({ kind: 'transfer', member })} label={t('console.members.makeOwnerLabel', { account: member.account })}>
                        {t('console.members.makeOwner')}
                      </RowButton>
                      <RowButton onClick={() => setAction({ kind: 'remove', member })} label={t('console.members.removeLabel', { account: member.account })}>
                        {t('console.members.remove')}
                      </RowButton>
                    </div>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}

      <ChangeRoleDialog
        member={action?.kind === 'role' ? action.member : null}
        onSave={async (member, role) => void (await changeRole(member, role))}
        onClose={() => setAction(null)}
      />
      <ConfirmDialog
        open={action?.kind === 'remove'}
        title={t('console.members.removeTitle')}
        confirmLabel={t('console.members.removeConfirm')}
        danger
        onConfirm={async () => void (action && (await remove(action.member)))}
        onClose={() => setAction(null)}
      >
        <p>{tWith('console.members.removeText', { name: <strong>{action?.member.displayName}</strong>, account: action?.member.account, project: project.name })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={action?.kind === 'transfer'}
        title={t('console.members.transferTitle')}
        confirmLabel={t('console.members.transferConfirm')}
        danger
        onConfirm={async () => void (action && (await transfer(action.member)))}
        onClose={() => setAction(null)}
      >
        <p>{tWith('console.members.transferText', { name: <strong>{action?.member.displayName}</strong>, account: action?.member.account, project: project.name })}</p>
        <p>
          <strong>{t('console.members.noUndo')}</strong> {t('console.members.noUndoText')}
        </p>
      </ConfirmDialog>
    </section>
  );
}

import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { api, unwrap } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { sessionUser } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { CreateUserDialog } from './create-user-dialog.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';

type PendingChange = { user: AdminUser; kind: 'status' | 'admin' } | null;

export function AdminUsersPage() {
  const users = useResource('admin-users', () => unwrap(api.GET('/admin/users')).then((r) => r.users));
  const [creating, setCreating] = useState(false);
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const [pending, setPending] = useState<PendingChange>(null);
  const [notice, setNotice] = useState('');
  const me = sessionUser();

  const update = async (user: AdminUser, changes: Partial<Pick<AdminUser, 'status' | 'isAdmin'>>) => {
    const { user: saved } = await unwrap(api.PATCH('/admin/users/{subjectId}', { params: { path: { subjectId: user.subjectId } }, body: changes }));
    users.set((users.data ?? []).map((u) => (u.subjectId === saved.subjectId ? saved : u)));
  };
  const target = pending?.user;
  const disabling = target?.status === 'active';
  const withdrawing = target?.isAdmin === true;

  return (
    <>
      <PageHeader
        title="Users"
        actions={
          <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
            New user
          </button>
        }
      >
        <p class="muted">Everyone who can sign in to Sesame: to applications, to this console and to the Agent API. Only administrators see this page.</p>
      </PageHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      {users.error && <LoadError error={users.error} onRetry={() => void users.reload()} />}
      {!users.data && !users.error && <Loading what={t('console.what.users')} />}
      {users.data && (
        <table class="data-table">
          <caption class="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Email</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => {
              const self = user.subjectId === me?.subjectId;
              return (
                <tr key={user.subjectId}>
                  <th scope="row" data-label="User">
                    {user.displayName}
                    {self && <span class="muted"> (you)</span>} {user.isAdmin && <Badge tone="accent">admin</Badge>}
                    <span class="block small muted">{user.account}</span>
                  </th>
                  <td data-label="Email">{user.email ?? <span class="muted">none</span>}</td>
                  <td data-label="Status">
                    <Badge tone={user.status === 'active' ? 'success' : 'danger'}>{user.status}</Badge>
                  </td>
                  <td data-label="Actions">
                    <div class="actions">
                      <button type="button" class="button button-small" onClick={() => setResetting(user)} aria-label={`Reset password of ${user.account}`}>
                        Reset password
                      </button>
                      {!self && (
                        <>
                          <button
                            type="button"
                            class="button button-small"
                            onClick={() => setPending({ user, kind: 'admin' })}
                            aria-label={user.isAdmin ? `Withdraw admin from ${user.account}` : `Make admin: ${user.account}`}
                          >
                            {user.isAdmin ? 'Withdraw admin' : 'Make admin'}
                          </button>
                          <button
                            type="button"
                            class="button button-small"
                            onClick={() => setPending({ user, kind: 'status' })}
                            aria-label={user.status === 'active' ? `Disable ${user.account}` : `Enable ${user.account}`}
                          >
                            {user.status === 'active' ? 'Disable' : 'Enable'}
                          </button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p class="small muted">You cannot disable yourself or withdraw your own admin rights; another administrator can.</p>

      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(user) => {
          users.set([...(users.data ?? []), user].sort((a, b) => a.account.localeCompare(b.account)));
          setNotice(`Created ${user.account}.`);
        }}
      />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} onDone={(user) => setNotice(`Set a new password for ${user.account}; their sessions were ended.`)} />
      <ConfirmDialog
        open={pending?.kind === 'status'}
        title={disabling ? 'Disable this user?' : 'Enable this user?'}
        confirmLabel={disabling ? 'Disable user' : 'Enable user'}
        danger={disabling}
        onConfirm={() => (target ? update(target, { status: disabling ? 'disabled' : 'active' }) : Promise.resolve())}
        onClose={() => setPending(null)}
      >
        {disabling ? (
          <p>
            <strong>{target?.displayName}</strong> ({target?.account}) can no longer sign in anywhere, and their console and Agent API sessions end at once.
          </p>
        ) : (
          <p>
            <strong>{target?.displayName}</strong> ({target?.account}) can sign in again with their current password.
          </p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'admin'}
        title={withdrawing ? 'Withdraw admin rights?' : 'Make this user an administrator?'}
        confirmLabel={withdrawing ? 'Withdraw admin' : 'Make admin'}
        danger={!withdrawing}
        onConfirm={() => (target ? update(target, { isAdmin: !withdrawing }) : Promise.resolve())}
        onClose={() => setPending(null)}
      >
        {withdrawing ? (
          <p>
            <strong>{target?.displayName}</strong> keeps their project memberships but no longer manages users or acts as owner everywhere.
          </p>
        ) : (
          <p>
            <strong>{target?.displayName}</strong> will manage all users and act as owner on every project, including ones they are not a member of.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}

import { useState } from 'preact/hooks';
import { t, tWith } from '../i18n.ts';
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
        title={t('console.users.title')}
        actions={
          <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
            {t('console.users.new')}
          </button>
        }
      >
        <p class="muted">{t('console.users.intro')}</p>
      </PageHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      {users.error && <LoadError error={users.error} onRetry={() => void users.reload()} />}
      {!users.data && !users.error && <Loading what={t('console.what.users')} />}
      {users.data && (
        <table class="data-table">
          <caption class="visually-hidden">{t('console.users.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('console.users.user')}</th>
              <th scope="col">{t('console.users.email')}</th>
              <th scope="col">{t('console.users.status')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('console.users.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => {
              const self = user.subjectId === me?.subjectId;
              return (
                <tr key={user.subjectId}>
                  <th scope="row" data-label={t('console.users.user')}>
                    {user.displayName}
                    {self && <span class="muted"> {t('console.users.you')}</span>} {user.isAdmin && <Badge tone="accent">{t('console.admin')}</Badge>}
                    <span class="block small muted">{user.account}</span>
                    {user.groups.length > 0 && <span class="block small muted">{t('console.users.groups', { groups: user.groups.join(', ') })}</span>}
                  </th>
                  <td data-label={t('console.users.email')}>{user.email ?? <span class="muted">{t('console.users.noEmail')}</span>}</td>
                  <td data-label={t('console.users.status')}>
                    <Badge tone={user.status === 'active' ? 'success' : 'danger'}>{t(user.status === 'active' ? 'console.users.active' : 'console.users.disabled')}</Badge>
                  </td>
                  <td data-label={t('console.users.actions')}>
                    <div class="actions">
                      <button type="button" class="button button-small" onClick={() => setResetting(user)} aria-label={t('console.users.resetLabel', { account: user.account })}>
                        {t('console.users.reset')}
                      </button>
                      {!self && (
                        <>
                          <button
                            type="button"
                            class="button button-small"
                            onClick={() => setPending({ user, kind: 'admin' })}
                            aria-label={t(user.isAdmin ? 'console.users.withdrawAdminLabel' : 'console.users.makeAdminLabel', { account: user.account })}
                          >
                            {t(user.isAdmin ? 'console.users.withdrawAdmin' : 'console.users.makeAdmin')}
                          </button>
                          <button
                            type="button"
                            class="button button-small"
                            onClick={() => setPending({ user, kind: 'status' })}
                            aria-label={t(user.status === 'active' ? 'console.users.disableLabel' : 'console.users.enableLabel', { account: user.account })}
                          >
                            {t(user.status === 'active' ? 'console.users.disable' : 'console.users.enable')}
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
      <p class="small muted">{t('console.users.notYourself')}</p>

      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(user) => {
          users.set([...(users.data ?? []), user].sort((a, b) => a.account.localeCompare(b.account)));
          setNotice(t('console.users.created', { account: user.account }));
        }}
      />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} onDone={(user) => setNotice(t('console.users.passwordSet', { account: user.account }))} />
      <ConfirmDialog
        open={pending?.kind === 'status'}
        title={t(disabling ? 'console.users.disableTitle' : 'console.users.enableTitle')}
        confirmLabel={t(disabling ? 'console.users.disableConfirm' : 'console.users.enableConfirm')}
        danger={disabling}
        onConfirm={() => (target ? update(target, { status: disabling ? 'disabled' : 'active' }) : Promise.resolve())}
        onClose={() => setPending(null)}
      >
        <p>{tWith(disabling ? 'console.users.disableText' : 'console.users.enableText', { name: <strong>{target?.displayName}</strong>, account: target?.account })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'admin'}
        title={t(withdrawing ? 'console.users.withdrawTitle' : 'console.users.makeAdminTitle')}
        confirmLabel={t(withdrawing ? 'console.users.withdrawAdmin' : 'console.users.makeAdmin')}
        danger={!withdrawing}
        onConfirm={() => (target ? update(target, { isAdmin: !withdrawing }) : Promise.resolve())}
        onClose={() => setPending(null)}
      >
        <p>{tWith(withdrawing ? 'console.users.withdrawText' : 'console.users.makeAdminText', { name: <strong>{target?.displayName}</strong> })}</p>
      </ConfirmDialog>
    </>
  );
}

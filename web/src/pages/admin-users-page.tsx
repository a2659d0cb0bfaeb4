import { useState } from 'preact/hooks';
import { t, tWith } from '../i18n.ts';
import { api, unwrap } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { RowButton } from '../components/row-button.tsx';
import { sessionUser } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { CreateUserDialog } from './create-user-dialog.tsx';
import { EditUserDialog } from './edit-user-dialog.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';

type PendingChange = { user: AdminUser; kind: 'status' | 'admin' | 'factors' } | null;

const PAGE_SIZE = 20;

export function AdminUsersPage() {
  // The search applied, and cursors[i] the `before` of page i (page 0 starts at the newest person).
  const [query, setQuery] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const before = cursors[page];
  const users = useResource(`admin-users:${query}:${before ?? ''}`, () =>
    unwrap(api.GET('/admin/users', { params: { query: { limit: String(PAGE_SIZE), ...(query ? { query } : {}), ...(before ? { before } : {}) } } })),
  );
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const [pending, setPending] = useState<PendingChange>(null);
  const [notice, setNotice] = useState('');
  const me = sessionUser();

  const replace = (saved: AdminUser) => users.data && users.set({ ...users.data, users: users.data.users.map((u) => (u.subjectId === saved.subjectId ? saved : u)) });
  const update = async (user: AdminUser, changes: Partial<Pick<AdminUser, 'status' | 'isAdmin'>>) => {
    const { user: saved } = await unwrap(api.PATCH('/admin/users/{subjectId}', { params: { path: { subjectId: user.subjectId } }, body: changes }));
    replace(saved);
  };
  const resetFactors = async (user: AdminUser) => {
    await unwrap(api.POST('/admin/users/{subjectId}/factors/reset', { params: { path: { subjectId: user.subjectId } } }));
    setNotice(t('console.users.factorsReset', { account: user.account }));
  };
  const search = (event: Event) => {
    event.preventDefault();
    // Read from the form itself: a submit right after typing must not see the text of the render before.
    setQuery(String(new FormData(event.currentTarget as HTMLFormElement).get('query') ?? '').trim());
    setCursors([undefined]);
  };
  const list = users.data?.users;
  const nextBefore = users.data?.nextBefore ?? null;
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
      <form class="search-form" role="search" aria-label={t('console.users.searchLabel')} onSubmit={search}>
        <label for="user-search">{t('console.users.search')}</label>
        <div class="search-row">
          <input id="user-search" name="query" type="search" autoComplete="off" spellcheck={false} />
          <button type="submit" class="button">
            {t('console.users.searchSubmit')}
          </button>
        </div>
      </form>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={users} what={t('console.what.users')} />
      {list && list.length === 0 && <p class="muted">{t(query ? 'console.users.noMatch' : 'console.users.none', { query })}</p>}
      {list && list.length > 0 && (
        <DataTable caption={t('console.users.caption')} columns={[t('console.users.user'), t('console.users.email'), t('console.users.status')]} actions={t('console.users.actions')}>
          {list.map((user) => {
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
                    <RowButton onClick={() => setEditing(user)} label={t('console.users.editLabel', { account: user.account })}>
                      {t('console.users.edit')}
                    </RowButton>
                    <RowButton onClick={() => setResetting(user)} label={t('console.users.resetLabel', { account: user.account })}>
                      {t('console.users.reset')}
                    </RowButton>
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
                          onClick={() => setPending({ user, kind: 'factors' })}
                          aria-label={t('console.users.resetFactorsLabel', { account: user.account })}
                        >
                          {t('console.users.resetFactors')}
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
        </DataTable>
      )}
      <nav class="pager actions" aria-label={t('console.users.pages')}>
        <button type="button" class="button" disabled={page === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t('console.users.newer')}
        </button>
        <span class="small muted">{t('console.audit.page', { page: page + 1 })}</span>
        <button type="button" class="button" disabled={nextBefore === null} onClick={() => nextBefore && setCursors([...cursors, nextBefore])}>
          {t('console.users.older')}
        </button>
      </nav>
      <p class="small muted">{t('console.users.notYourself')}</p>

      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(user) => {
          // The newest person heads the first page.
          setCursors([undefined]);
          void users.reload();
          setNotice(t('console.users.created', { account: user.account }));
        }}
      />
      <EditUserDialog
        user={editing}
        self={editing?.subjectId === me?.subjectId}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          replace(saved);
          setNotice(t('console.users.saved', { account: saved.account }));
        }}
      />
      <ConfirmDialog
        open={pending?.kind === 'factors'}
        title={t('console.users.resetFactorsTitle')}
        confirmLabel={t('console.users.resetFactors')}
        danger
        onConfirm={() => (target ? resetFactors(target) : Promise.resolve())}
        onClose={() => setPending(null)}
      >
        <p>{tWith('console.users.resetFactorsText', { name: <strong>{target?.displayName}</strong>, account: target?.account })}</p>
      </ConfirmDialog>
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

import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AssistantGrant } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Time } from '../components/time.tsx';
import { RowButton } from '../components/row-button.tsx';
import { useResource } from '../use-resource.ts';
import { t } from '../i18n.ts';

const SCOPE_KEYS = { 'sesame:read': 'console.assistantGrants.scope.read', 'sesame:write': 'console.assistantGrants.scope.write', 'sesame:admin': 'console.assistantGrants.scope.admin' } as const;

const PAGE_SIZE = 50;

type Page = { grants: AssistantGrant[]; nextBefore: string | null };

export function AdminAssistantGrantsPage() {
  const first = useResource<Page>('admin-assistant-grants', () => unwrap(api.GET('/admin/assistant-grants', { params: { query: { limit: String(PAGE_SIZE) } } })));
  const [older, setOlder] = useState<Page[]>([]);
  const [loadingMore, setLoadingMore] = useState(false);
  const [pending, setPending] = useState<AssistantGrant | null>(null);
  const [revokedIds, setRevokedIds] = useState<string[]>([]);
  const [notice, setNotice] = useState('');

  const pages = first.data ? [first.data, ...older] : [];
  const grants = pages.flatMap((page) => page.grants).filter((grant) => !revokedIds.includes(grant.grantId));
  const nextBefore = pages.at(-1)?.nextBefore ?? null;

  const showMore = async () => {
    if (!nextBefore) return;
    setLoadingMore(true);
    try {
      const page = await unwrap(api.GET('/admin/assistant-grants', { params: { query: { limit: String(PAGE_SIZE), before: nextBefore } } }));
      setOlder([...older, page]);
    } finally {
      setLoadingMore(false);
    }
  };

  const revoke = async (grant: AssistantGrant) => {
    await unwrap(api.DELETE('/admin/assistant-grants/{grantId}', { params: { path: { grantId: grant.grantId } } }));
    setRevokedIds([...revokedIds, grant.grantId]);
    setNotice(t('console.assistantGrants.revoked', { assistant: grant.displayName, account: grant.account }));
  };

  return (
    <>
      <PageHeader title={t('console.assistantGrants.title')}>
        <p class="muted">{t('console.assistantGrants.intro')}</p>
      </PageHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={first} what={t('console.assistantGrants.loading')} />
      {first.data && grants.length === 0 && <p class="muted">{t('console.assistantGrants.none')}</p>}
      {first.data && grants.length > 0 && (
        <DataTable caption={t('console.assistantGrants.caption')} columns={[t('console.assistantGrants.assistant'), t('console.assistantGrants.person'), t('console.assistantGrants.access'), t('console.assistantGrants.granted'), t('console.assistantGrants.lastUsed')]} actions={t('console.assistantGrants.actions')}>
          {grants.map((grant) => (
            <tr key={grant.grantId}>
              <th scope="row" data-label={t('console.assistantGrants.assistant')}>
                {grant.displayName}
                <span class="block small muted">{grant.clientId}</span>
              </th>
              <td data-label={t('console.assistantGrants.person')}>{grant.account}</td>
              <td data-label={t('console.assistantGrants.access')}>
                <span class="page-badges">
                  {grant.scopes
                    .filter((scope): scope is keyof typeof SCOPE_KEYS => scope in SCOPE_KEYS)
                    .map((scope) => (
                      <Badge key={scope} tone={scope === 'sesame:read' ? 'neutral' : 'accent'}>
                        {t(SCOPE_KEYS[scope])}
                      </Badge>
                    ))}
                </span>
              </td>
              <td data-label={t('console.assistantGrants.granted')}>
                <Time value={grant.grantedAt} />
              </td>
              <td data-label={t('console.assistantGrants.lastUsed')}>
                <Time value={grant.lastUsedAt} empty={t('console.assistantGrants.never')} />
              </td>
              <td data-label={t('console.assistantGrants.actions')}>
                <RowButton onClick={() => setPending(grant)} label={t('console.assistantGrants.revokeLabel', { assistant: grant.displayName, account: grant.account })}>
                  {t('console.assistantGrants.revoke')}
                </RowButton>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {nextBefore && (
        <div class="actions">
          <button type="button" class="button" onClick={() => void showMore()} disabled={loadingMore}>
            {t('console.assistantGrants.more')}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={t('console.assistantGrants.confirmTitle')}
        confirmLabel={t('console.assistantGrants.confirmButton')}
        danger
        onConfirm={() => (pending ? revoke(pending) : Promise.resolve())}
        onClose={() => setPending(null)}
      >
        <p>{pending ? t('console.assistantGrants.confirmText', { assistant: pending.displayName, account: pending.account }) : ''}</p>
      </ConfirmDialog>
    </>
  );
}

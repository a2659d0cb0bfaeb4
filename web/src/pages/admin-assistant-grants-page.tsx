import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AssistantGrant } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Time } from '../components/time.tsx';
import { useResource } from '../use-resource.ts';

// The page's English text in one place, ready for the language catalogues.
const TEXT = {
  title: 'Assistant grants',
  intro: 'Every AI assistant (a native client) that someone has connected to their account, and what it may do. Disconnecting one stops its tokens at once; the person is asked again if they connect it later. Only administrators see this page.',
  loading: 'assistant grants',
  caption: 'Assistant grants',
  assistant: 'Assistant',
  person: 'Person',
  access: 'May',
  granted: 'Connected',
  lastUsed: 'Last used',
  actions: 'Actions',
  never: 'never',
  none: 'No assistant is connected to any account.',
  more: 'Show older grants',
  revoke: 'Disconnect',
  revokeLabel: (grant: AssistantGrant) => `Disconnect ${grant.displayName} from ${grant.account}`,
  confirmTitle: 'Disconnect this assistant?',
  confirmButton: 'Disconnect assistant',
  confirmText: (grant: AssistantGrant) =>
    `${grant.displayName} can no longer act for ${grant.account}: its access and refresh tokens stop working at once. ${grant.account} can connect it again, and is then asked again what it may do.`,
  revoked: (grant: AssistantGrant) => `Disconnected ${grant.displayName} from ${grant.account}.`,
  scope: { 'sesame:read': 'read', 'sesame:write': 'change', 'sesame:admin': 'administer' } as Record<string, string>,
};

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
    setNotice(TEXT.revoked(grant));
  };

  return (
    <>
      <PageHeader title={TEXT.title}>
        <p class="muted">{TEXT.intro}</p>
      </PageHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      {first.error && <LoadError error={first.error} onRetry={() => void first.reload()} />}
      {!first.data && !first.error && <Loading what={TEXT.loading} />}
      {first.data && grants.length === 0 && <p class="muted">{TEXT.none}</p>}
      {first.data && grants.length > 0 && (
        <table class="data-table">
          <caption class="visually-hidden">{TEXT.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{TEXT.assistant}</th>
              <th scope="col">{TEXT.person}</th>
              <th scope="col">{TEXT.access}</th>
              <th scope="col">{TEXT.granted}</th>
              <th scope="col">{TEXT.lastUsed}</th>
              <th scope="col">
                <span class="visually-hidden">{TEXT.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.grantId}>
                <th scope="row" data-label={TEXT.assistant}>
                  {grant.displayName}
                  <span class="block small muted">{grant.clientId}</span>
                </th>
                <td data-label={TEXT.person}>{grant.account}</td>
                <td data-label={TEXT.access}>
                  <span class="page-badges">
                    {grant.scopes
                      .filter((scope) => TEXT.scope[scope])
                      .map((scope) => (
                        <Badge key={scope} tone={scope === 'sesame:read' ? 'neutral' : 'accent'}>
                          {TEXT.scope[scope]}
                        </Badge>
                      ))}
                  </span>
                </td>
                <td data-label={TEXT.granted}>
                  <Time value={grant.grantedAt} />
                </td>
                <td data-label={TEXT.lastUsed}>
                  <Time value={grant.lastUsedAt} empty={TEXT.never} />
                </td>
                <td data-label={TEXT.actions}>
                  <button type="button" class="button button-small" onClick={() => setPending(grant)} aria-label={TEXT.revokeLabel(grant)}>
                    {TEXT.revoke}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextBefore && (
        <div class="actions">
          <button type="button" class="button" onClick={() => void showMore()} disabled={loadingMore}>
            {TEXT.more}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={TEXT.confirmTitle}
        confirmLabel={TEXT.confirmButton}
        danger
        onConfirm={() => (pending ? revoke(pending) : Promise.resolve())}
        onClose={() => setPending(null)}
      >
        <p>{pending ? TEXT.confirmText(pending) : ''}</p>
      </ConfirmDialog>
    </>
  );
}

import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AccountSession } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { useResource } from '../use-resource.ts';
import { currentLocale, t } from '../i18n.ts';

const KIND_KEYS = { console: 'console.accountSessions.kinds.console', agent: 'console.accountSessions.kinds.agent', oidc: 'console.accountSessions.kinds.oidc' } as const;
const CONFIRM_BODY_KEYS = { console: 'console.accountSessions.confirmBody.console', agent: 'console.accountSessions.confirmBody.agent', oidc: 'console.accountSessions.confirmBody.oidc' } as const;

export function AccountSessionsPanel() {
  const sessions = useResource('account-sessions', () => unwrap(api.GET('/account/sessions')).then((r) => r.sessions));
  const [ending, setEnding] = useState<AccountSession | null>(null);
  const [notice, setNotice] = useState('');

  const end = async (session: AccountSession) => {
    await unwrap(api.DELETE('/account/sessions/{sessionId}', { params: { path: { sessionId: session.sessionId } } }));
    sessions.set((sessions.data ?? []).filter((s) => s.sessionId !== session.sessionId));
    setNotice(t('console.accountSessions.ended'));
  };
  const sorted = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));

  return (
    <section>
      <PanelHeader title={t('console.accountSessions.title')}>
        <p class="muted">{t('console.accountSessions.intro')}</p>
      </PanelHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={sessions} what={t('console.accountSessions.loading')} />
      {sessions.data && sorted.length === 0 && <p class="muted">{t('console.accountSessions.none')}</p>}
      {sessions.data && sorted.length > 0 && (
        <DataTable caption={t('console.accountSessions.caption')} columns={[t('console.accountSessions.kind'), t('console.accountSessions.created'), t('console.accountSessions.lastSeen')]} actions={t('console.accountSessions.actions')}>
          {sorted.map((session) => (
            <tr key={session.sessionId}>
              <th scope="row" data-label={t('console.accountSessions.kind')}>
                {t(KIND_KEYS[session.kind])} {session.current && <Badge tone="accent">{t('console.accountSessions.thisSession')}</Badge>}
              </th>
              <td data-label={t('console.accountSessions.created')}>
                <Time value={session.createdAt} />
              </td>
              <td data-label={t('console.accountSessions.lastSeen')}>
                <Time value={session.lastSeenAt} />
              </td>
              <td data-label={t('console.accountSessions.actions')}>
                {!session.current && (
                  <button
                    type="button"
                    class="button button-small"
                    onClick={() => setEnding(session)}
                    aria-label={t('console.accountSessions.endLabel', { kind: t(KIND_KEYS[session.kind]), created: new Date(session.createdAt).toLocaleString(currentLocale()) })}
                  >
                    {t('console.accountSessions.end')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ConfirmDialog
        open={ending !== null}
        title={t('console.accountSessions.confirmTitle')}
        confirmLabel={t('console.accountSessions.end')}
        danger
        onConfirm={() => (ending ? end(ending) : Promise.resolve())}
        onClose={() => setEnding(null)}
      >
        <p>
          <strong>{ending ? t(KIND_KEYS[ending.kind]) : ''}</strong>. {ending ? t(CONFIRM_BODY_KEYS[ending.kind]) : ''}
        </p>
      </ConfirmDialog>
    </section>
  );
}

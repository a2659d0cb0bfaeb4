import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AccountSession } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { useResource } from '../use-resource.ts';
import { currentLocale, t } from '../i18n.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get title() {
    return t('console.accountSessions.title');
  },
  get intro() {
    return t('console.accountSessions.intro');
  },
  get caption() {
    return t('console.accountSessions.caption');
  },
  get kind() {
    return t('console.accountSessions.kind');
  },
  get created() {
    return t('console.accountSessions.created');
  },
  get lastSeen() {
    return t('console.accountSessions.lastSeen');
  },
  get actions() {
    return t('console.accountSessions.actions');
  },
  get thisSession() {
    return t('console.accountSessions.thisSession');
  },
  kinds: {
    get console() {
      return t('console.accountSessions.kinds.console');
    },
    get agent() {
      return t('console.accountSessions.kinds.agent');
    },
    get oidc() {
      return t('console.accountSessions.kinds.oidc');
    },
  },
  get end() {
    return t('console.accountSessions.end');
  },
  endLabel: (kind: string, created: string) => t('console.accountSessions.endLabel', { kind, created }),
  get confirmTitle() {
    return t('console.accountSessions.confirmTitle');
  },
  confirmBody: {
    get console() {
      return t('console.accountSessions.confirmBody.console');
    },
    get agent() {
      return t('console.accountSessions.confirmBody.agent');
    },
    get oidc() {
      return t('console.accountSessions.confirmBody.oidc');
    },
  },
  get ended() {
    return t('console.accountSessions.ended');
  },
  get none() {
    return t('console.accountSessions.none');
  },
  get loading() {
    return t('console.accountSessions.loading');
  },
};

export function AccountSessionsPanel() {
  const sessions = useResource('account-sessions', () => unwrap(api.GET('/account/sessions')).then((r) => r.sessions));
  const [ending, setEnding] = useState<AccountSession | null>(null);
  const [notice, setNotice] = useState('');

  const end = async (session: AccountSession) => {
    await unwrap(api.DELETE('/account/sessions/{sessionId}', { params: { path: { sessionId: session.sessionId } } }));
    sessions.set((sessions.data ?? []).filter((s) => s.sessionId !== session.sessionId));
    setNotice(TEXT.ended);
  };
  const sorted = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));

  return (
    <section>
      <PanelHeader title={TEXT.title}>
        <p class="muted">{TEXT.intro}</p>
      </PanelHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={sessions} what={TEXT.loading} />
      {sessions.data && sorted.length === 0 && <p class="muted">{TEXT.none}</p>}
      {sessions.data && sorted.length > 0 && (
        <table class="data-table">
          <caption class="visually-hidden">{TEXT.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{TEXT.kind}</th>
              <th scope="col">{TEXT.created}</th>
              <th scope="col">{TEXT.lastSeen}</th>
              <th scope="col">
                <span class="visually-hidden">{TEXT.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((session) => (
              <tr key={session.sessionId}>
                <th scope="row" data-label={TEXT.kind}>
                  {TEXT.kinds[session.kind]} {session.current && <Badge tone="accent">{TEXT.thisSession}</Badge>}
                </th>
                <td data-label={TEXT.created}>
                  <Time value={session.createdAt} />
                </td>
                <td data-label={TEXT.lastSeen}>
                  <Time value={session.lastSeenAt} />
                </td>
                <td data-label={TEXT.actions}>
                  {!session.current && (
                    <button
                      type="button"
                      class="button button-small"
                      onClick={() => setEnding(session)}
                      aria-label={TEXT.endLabel(TEXT.kinds[session.kind], new Date(session.createdAt).toLocaleString(currentLocale()))}
                    >
                      {TEXT.end}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={ending !== null}
        title={TEXT.confirmTitle}
        confirmLabel={TEXT.end}
        danger
        onConfirm={() => (ending ? end(ending) : Promise.resolve())}
        onClose={() => setEnding(null)}
      >
        <p>
          <strong>{ending ? TEXT.kinds[ending.kind] : ''}</strong>. {ending ? TEXT.confirmBody[ending.kind] : ''}
        </p>
      </ConfirmDialog>
    </section>
  );
}

import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AccountSession } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { useResource } from '../use-resource.ts';

const TEXT = {
  title: 'Sessions',
  intro:
    'Where you are signed in now. End any session you do not recognise, or one on a device you no longer have: it stops working at once. To end them all, change your password.',
  caption: 'My sessions',
  kind: 'Kind',
  created: 'Signed in',
  lastSeen: 'Last seen',
  actions: 'Actions',
  thisSession: 'this session',
  kinds: {
    console: 'Console (a browser)',
    agent: 'Agent API token (a script or assistant)',
    oidc: 'Sign-in at applications (Sesame\'s login page)',
  },
  end: 'End session',
  endLabel: (kind: string, created: string) => `End session: ${kind}, signed in ${created}`,
  confirmTitle: 'End this session?',
  confirmBody: {
    console: 'That browser is signed out of the console at once.',
    agent: 'The token stops working at once; a script or assistant using it must sign in again.',
    oidc: 'That browser must sign in again the next time an application sends it to Sesame. Tokens applications already hold keep working until they expire; withdraw an application\'s access under Applications to end those.',
  },
  ended: 'The session is ended.',
  none: 'No sessions.',
  loading: 'your sessions',
} as const;

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
      {sessions.error && <LoadError error={sessions.error} onRetry={() => void sessions.reload()} />}
      {!sessions.data && !sessions.error && <Loading what={TEXT.loading} />}
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
                      aria-label={TEXT.endLabel(TEXT.kinds[session.kind], new Date(session.createdAt).toLocaleString())}
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

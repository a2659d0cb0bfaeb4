import { useState } from 'preact/hooks';
import { ASSISTANT_SCOPE_DESCRIPTIONS, isAssistantScope } from '../../../src/domain/assistant-scopes.ts';
import { SCOPE_CONSENT_TEXT } from '../../../src/domain/scopes.ts';
import { api, unwrap } from '../api/client.ts';
import type { Consent } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { useResource } from '../use-resource.ts';
import { t } from '../i18n.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get title() {
    return t('console.accountApplications.title');
  },
  get intro() {
    return t('console.accountApplications.intro');
  },
  get applicationsTitle() {
    return t('console.accountApplications.applicationsTitle');
  },
  get applicationsNone() {
    return t('console.accountApplications.applicationsNone');
  },
  get assistantsTitle() {
    return t('console.accountApplications.assistantsTitle');
  },
  get assistantsIntro() {
    return t('console.accountApplications.assistantsIntro');
  },
  get assistantsNone() {
    return t('console.accountApplications.assistantsNone');
  },
  get name() {
    return t('console.accountApplications.name');
  },
  get type() {
    return t('console.accountApplications.type');
  },
  get access() {
    return t('console.accountApplications.access');
  },
  get granted() {
    return t('console.accountApplications.granted');
  },
  get lastUsed() {
    return t('console.accountApplications.lastUsed');
  },
  get never() {
    return t('console.accountApplications.never');
  },
  get actions() {
    return t('console.accountApplications.actions');
  },
  types: {
    get web() {
      return t('console.accountApplications.types.web');
    },
    get spa() {
      return t('console.accountApplications.types.spa');
    },
    get native() {
      return t('console.accountApplications.types.native');
    },
    get removed() {
      return t('console.accountApplications.types.removed');
    },
  },
  get removedClient() {
    return t('console.accountApplications.removedClient');
  },
  get revoke() {
    return t('console.accountApplications.revoke');
  },
  revokeLabel: (name: string) => t('console.accountApplications.revokeLabel', { name }),
  get confirmTitle() {
    return t('console.accountApplications.confirmTitle');
  },
  confirmBody: (name: string) => t('console.accountApplications.confirmBody', { name }),
  revoked: (name: string) => t('console.accountApplications.revoked', { name }),
  get loading() {
    return t('console.accountApplications.loading');
  },
};

/** A granted scope in the words of the consent page; an unknown one as it is. */
function scopeInWords(scope: string): string {
  if (isAssistantScope(scope)) return ASSISTANT_SCOPE_DESCRIPTIONS[scope];
  return (SCOPE_CONSENT_TEXT as Record<string, string>)[scope] ?? scope;
}

const nameOf = (consent: Consent) => consent.displayName ?? consent.clientId;

export function AccountApplicationsPanel() {
  const consents = useResource('account-consents', () => unwrap(api.GET('/account/consents')).then((r) => r.consents));
  const [revoking, setRevoking] = useState<Consent | null>(null);
  const [notice, setNotice] = useState('');

  const revoke = async (consent: Consent) => {
    await unwrap(api.DELETE('/account/consents/{grantId}', { params: { path: { grantId: consent.grantId } } }));
    consents.set((consents.data ?? []).filter((c) => c.grantId !== consent.grantId));
    setNotice(TEXT.revoked(nameOf(consent)));
  };
  const all = consents.data ?? [];
  const assistants = all.filter((consent) => consent.clientType === 'native');
  const applications = all.filter((consent) => consent.clientType !== 'native');

  return (
    <section>
      <PanelHeader title={TEXT.title}>
        <p class="muted">{TEXT.intro}</p>
      </PanelHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={consents} what={TEXT.loading} />
      {consents.data && (
        <div class="account-sections">
          <section class="card section-card" aria-labelledby="my-applications-title">
            <h3 id="my-applications-title">{TEXT.applicationsTitle}</h3>
            <ConsentTable consents={applications} caption={TEXT.applicationsTitle} empty={TEXT.applicationsNone} onRevoke={setRevoking} />
          </section>
          <section class="card section-card" aria-labelledby="my-assistants-title">
            <h3 id="my-assistants-title">{TEXT.assistantsTitle}</h3>
            <p class="small muted">{TEXT.assistantsIntro}</p>
            <ConsentTable consents={assistants} caption={TEXT.assistantsTitle} empty={TEXT.assistantsNone} onRevoke={setRevoking} />
          </section>
        </div>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={TEXT.confirmTitle}
        confirmLabel={TEXT.revoke}
        danger
        onConfirm={() => (revoking ? revoke(revoking) : Promise.resolve())}
        onClose={() => setRevoking(null)}
      >
        <p>{revoking ? TEXT.confirmBody(nameOf(revoking)) : ''}</p>
      </ConfirmDialog>
    </section>
  );
}

function ConsentTable({ consents, caption, empty, onRevoke }: { consents: Consent[]; caption: string; empty: string; onRevoke: (consent: Consent) => void }) {
  if (consents.length === 0) return <p class="muted">{empty}</p>;
  return (
    <table class="data-table">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{TEXT.name}</th>
          <th scope="col">{TEXT.access}</th>
          <th scope="col">{TEXT.granted}</th>
          <th scope="col">{TEXT.lastUsed}</th>
          <th scope="col">
            <span class="visually-hidden">{TEXT.actions}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {consents.map((consent) => (
          <tr key={consent.grantId}>
            <th scope="row" data-label={TEXT.name}>
              {consent.displayName ?? <span class="muted">{TEXT.removedClient}</span>}{' '}
              <Badge>
                <span class="visually-hidden">{TEXT.type}: </span>
                {TEXT.types[consent.clientType ?? 'removed']}
              </Badge>
              <span class="block small muted">
                <code>{consent.clientId}</code>
              </span>
            </th>
            <td data-label={TEXT.access}>
              <ul class="scope-list">
                {consent.scopes.map((scope) => (
                  <li key={scope}>
                    {scopeInWords(scope)} <span class="muted small">(<code>{scope}</code>)</span>
                  </li>
                ))}
              </ul>
            </td>
            <td data-label={TEXT.granted}>
              <Time value={consent.grantedAt} />
            </td>
            <td data-label={TEXT.lastUsed}>
              <Time value={consent.lastUsedAt} empty={TEXT.never} />
            </td>
            <td data-label={TEXT.actions}>
              <button type="button" class="button button-small" onClick={() => onRevoke(consent)} aria-label={TEXT.revokeLabel(nameOf(consent))}>
                {TEXT.revoke}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import { useState } from 'preact/hooks';
import { ASSISTANT_SCOPE_DESCRIPTIONS, isAssistantScope } from '../../../src/domain/assistant-scopes.ts';
import { SCOPE_CONSENT_TEXT } from '../../../src/domain/scopes.ts';
import { api, unwrap } from '../api/client.ts';
import type { Consent } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { RowButton } from '../components/row-button.tsx';
import { useResource } from '../use-resource.ts';
import { t } from '../i18n.ts';

const TYPE_KEYS = { web: 'console.accountApplications.types.web', spa: 'console.accountApplications.types.spa', native: 'console.accountApplications.types.native', removed: 'console.accountApplications.types.removed' } as const;

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
    setNotice(t('console.accountApplications.revoked', { name: nameOf(consent) }));
  };
  const all = consents.data ?? [];
  const assistants = all.filter((consent) => consent.clientType === 'native');
  const applications = all.filter((consent) => consent.clientType !== 'native');

  return (
    <section>
      <PanelHeader title={t('console.accountApplications.title')}>
        <p class="muted">{t('console.accountApplications.intro')}</p>
      </PanelHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={consents} what={t('console.accountApplications.loading')} />
      {consents.data && (
        <div class="account-sections">
          <section class="card section-card" aria-labelledby="my-applications-title">
            <h3 id="my-applications-title">{t('console.accountApplications.applicationsTitle')}</h3>
            <ConsentTable consents={applications} caption={t('console.accountApplications.applicationsTitle')} empty={t('console.accountApplications.applicationsNone')} onRevoke={setRevoking} />
          </section>
          <section class="card section-card" aria-labelledby="my-assistants-title">
            <h3 id="my-assistants-title">{t('console.accountApplications.assistantsTitle')}</h3>
            <p class="small muted">{t('console.accountApplications.assistantsIntro')}</p>
            <ConsentTable consents={assistants} caption={t('console.accountApplications.assistantsTitle')} empty={t('console.accountApplications.assistantsNone')} onRevoke={setRevoking} />
          </section>
        </div>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={t('console.accountApplications.confirmTitle')}
        confirmLabel={t('console.accountApplications.revoke')}
        danger
        onConfirm={() => (revoking ? revoke(revoking) : Promise.resolve())}
        onClose={() => setRevoking(null)}
      >
        <p>{revoking ? t('console.accountApplications.confirmBody', { name: nameOf(revoking) }) : ''}</p>
      </ConfirmDialog>
    </section>
  );
}

function ConsentTable({ consents, caption, empty, onRevoke }: { consents: Consent[]; caption: string; empty: string; onRevoke: (consent: Consent) => void }) {
  if (consents.length === 0) return <p class="muted">{empty}</p>;
  return (
    <DataTable caption={caption} columns={[t('console.accountApplications.name'), t('console.accountApplications.access'), t('console.accountApplications.granted'), t('console.accountApplications.lastUsed')]} actions={t('console.accountApplications.actions')}>
      {consents.map((consent) => (
        <tr key={consent.grantId}>
          <th scope="row" data-label={t('console.accountApplications.name')}>
            {consent.displayName ?? <span class="muted">{t('console.accountApplications.removedClient')}</span>}{' '}
            <Badge>
              <span class="visually-hidden">{t('console.accountApplications.type')}: </span>
              {t(TYPE_KEYS[consent.clientType ?? 'removed'])}
            </Badge>
            <span class="block small muted">
              <code>{consent.clientId}</code>
            </span>
          </th>
          <td data-label={t('console.accountApplications.access')}>
            <ul class="scope-list">
              {consent.scopes.map((scope) => (
                <li key={scope}>
                  {scopeInWords(scope)} <span class="muted small">(<code>{scope}</code>)</span>
                </li>
              ))}
            </ul>
          </td>
          <td data-label={t('console.accountApplications.granted')}>
            <Time value={consent.grantedAt} />
          </td>
          <td data-label={t('console.accountApplications.lastUsed')}>
            <Time value={consent.lastUsedAt} empty={t('console.accountApplications.never')} />
          </td>
          <td data-label={t('console.accountApplications.actions')}>
            <RowButton onClick={() => onRevoke(consent)} label={t('console.accountApplications.revokeLabel', { name: nameOf(consent) })}>
              {t('console.accountApplications.revoke')}
            </RowButton>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

import { useEffect, useState } from 'preact/hooks';
import type { Client } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { Time } from '../components/time.tsx';
import { loadDiscovery, type OidcDiscovery } from '../discovery.ts';
import { AssistantConnectCommands } from './assistant-connect-commands.tsx';
import { RelyingPartyRecipe } from './relying-party-recipe.tsx';
import { t, tWith } from '../i18n.ts';

/** What a relying-party developer needs to connect this client, as Sesame applies it right now. */
export function ClientConnectionInfo({ client }: { client: Client }) {
  const [discovery, setDiscovery] = useState<OidcDiscovery | null>(null);
  useEffect(() => {
    void loadDiscovery().then(setDiscovery);
  }, []);
  const issuer = discovery?.issuer ?? window.location.origin;
  const endpoints: [string, string | undefined][] = [
    [t('console.connection.authorizationEndpoint'), discovery?.authorization_endpoint],
    [t('console.connection.tokenEndpoint'), discovery?.token_endpoint],
    [t('console.connection.userinfoEndpoint'), discovery?.userinfo_endpoint],
    [t('console.connection.endSessionEndpoint'), discovery?.end_session_endpoint],
  ];

  return (
    <section class="card section-card">
      <h3>{t('console.connection.title')}</h3>
      <p class="muted small">
        {tWith('console.connection.live', { revision: client.revision, time: <Time value={client.updatedAt} /> })}
      </p>
      <dl class="facts">
        <div>
          <dt>{t('console.connection.clientId')}</dt>
          <dd class="copy-row">
            <code>{client.clientId}</code>
            <CopyButton text={client.clientId} label={t('console.connection.copyClientId')} />
          </dd>
        </div>
        <div>
          <dt>{t('console.connection.issuer')}</dt>
          <dd>
            <code>{issuer}</code>
          </dd>
        </div>
        <div>
          <dt>{t('console.connection.discovery')}</dt>
          <dd>
            <code>{`${issuer}/.well-known/openid-configuration`}</code>
          </dd>
        </div>
        <div>
          <dt>{t('console.connection.authentication')}</dt>
          <dd>
            {client.clientType === 'web' ? (
              <>
                {tWith('console.connection.withSecret', { method: <code>client_secret_basic</code> })}
              </>
            ) : (
              <>
                {tWith('console.connection.publicClient', { method: <code>none</code> })}
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('console.connection.flow')}</dt>
          <dd>
            {t(client.requirePkce ? 'console.connection.flowPkce' : 'console.connection.flowPkceOptional')}
            {client.clientType === 'spa' ? t('console.connection.noRefresh') : client.scopeWhitelist.includes('offline_access') ? t('console.connection.refresh') : ''}
          </dd>
        </div>
        {endpoints
          .filter((entry): entry is [string, string] => Boolean(entry[1]))
          .map(([label, url]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <code>{url}</code>
              </dd>
            </div>
          ))}
      </dl>
      {client.clientType === 'native' && <AssistantConnectCommands issuer={issuer} clientId={client.clientId} />}
      <RelyingPartyRecipe client={client} issuer={issuer} />
    </section>
  );
}

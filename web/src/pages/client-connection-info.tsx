import { useEffect, useState } from 'preact/hooks';
import type { Client } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { Time } from '../components/time.tsx';
import { loadDiscovery, type OidcDiscovery } from '../discovery.ts';
import { AssistantConnectCommands } from './assistant-connect-commands.tsx';
import { RelyingPartyRecipe } from './relying-party-recipe.tsx';

/** What a relying-party developer needs to connect this client, as Sesame applies it right now. */
export function ClientConnectionInfo({ client }: { client: Client }) {
  const [discovery, setDiscovery] = useState<OidcDiscovery | null>(null);
  useEffect(() => {
    void loadDiscovery().then(setDiscovery);
  }, []);
  const issuer = discovery?.issuer ?? window.location.origin;
  const endpoints: [string, string | undefined][] = [
    ['Authorization endpoint', discovery?.authorization_endpoint],
    ['Token endpoint', discovery?.token_endpoint],
    ['UserInfo endpoint', discovery?.userinfo_endpoint],
    ['End-session endpoint', discovery?.end_session_endpoint],
  ];

  return (
    <section class="card section-card">
      <h3>Connection settings</h3>
      <p class="muted small">
        Live: Sesame applies revision {client.revision} of this client's configuration to the next sign-in (changed <Time value={client.updatedAt} />).
      </p>
      <dl class="facts">
        <div>
          <dt>Client ID</dt>
          <dd class="copy-row">
            <code>{client.clientId}</code>
            <CopyButton text={client.clientId} label="Copy client ID" />
          </dd>
        </div>
        <div>
          <dt>Issuer</dt>
          <dd>
            <code>{issuer}</code>
          </dd>
        </div>
        <div>
          <dt>Discovery</dt>
          <dd>
            <code>{`${issuer}/.well-known/openid-configuration`}</code>
          </dd>
        </div>
        <div>
          <dt>Client authentication</dt>
          <dd>
            {client.clientType === 'web' ? (
              <>
                <code>client_secret_basic</code> with the client secret
              </>
            ) : (
              <>
                <code>none</code> (public client, no secret)
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Flow</dt>
          <dd>
            Authorization Code{client.requirePkce ? ' with PKCE (S256 required)' : ' (PKCE optional, S256 only)'}
            {client.clientType === 'spa' ? '; no refresh tokens' : client.scopeWhitelist.includes('offline_access') ? '; refresh tokens with offline_access' : ''}
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

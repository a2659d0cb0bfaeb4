import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

// oidc-provider caches client objects by a hash of the metadata the adapter returns, and the adapter
// reads the clients table on every lookup: a changed client is a new cache entry on the next request.
describe.each(TEST_ENGINES)('client changes reach /auth and /token at once on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  it('applies a revised configuration to the very next request: redirect URIs, scopes and PKCE', async () => {
    const rp = await fixture.register({ clientType: 'web', scopes: ['openid', 'profile'] });
    const config = await discoverAs(server.issuer, rp);
    const first = await authorizationRequest(config, rp, 'openid profile');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), first.url, PERSON);
    await redeemCode(config, first, callback.location!);

    const current = await server.services.clients.getClient(fixture.adminActor, fixture.projectId, rp.clientId);
    const newRedirect = 'http://127.0.0.1:9/moved/callback';
    await server.services.clients.reviseClientConfiguration(fixture.adminActor, fixture.projectId, rp.clientId, {
      clientVersion: current.clientVersion,
      redirectUris: [newRedirect],
      postLogoutRedirectUris: [],
      scopeWhitelist: ['openid', 'email'],
      requirePkce: false,
    });

    const agent = new OidcUserAgent(server.issuer);
    const old = await agent.request((await authorizationRequest(config, rp, 'openid')).url);
    expect(old.status).toBe(400);
    expect(old.location).toBeNull();

    const moved = { ...rp, redirectUri: newRedirect };
    const profile = await agent.request((await authorizationRequest(config, moved, 'openid profile')).url);
    expect(new URL(profile.location!).searchParams.get('error')).toBe('invalid_scope');

    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: newRedirect, scope: 'openid email', state: 'moved' });
    const movedCallback = await signInThroughPages(agent, url.href, PERSON);
    expect(movedCallback.location?.startsWith(`${newRedirect}?`)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(movedCallback.location!), { expectedState: 'moved' });
    expect((await oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).email).toBe('alice@example.edu');
  });

  it('refuses a client disabled between authorization and token request, on another instance of the same database', async () => {
    const rp = await fixture.register({ clientType: 'spa' });
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    // The change is written straight to the shared database, as another instance's API would.
    await server.db.updateTable('clients').set({ status: 'disabled' }).where('client_id', '=', rp.clientId).execute();
    expect(await oauthError(redeemCode(config, request, callback.location!))).toBe('invalid_client');
  });
});

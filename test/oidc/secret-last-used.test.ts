import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

/** DESIGN 5: a secret's lastUsedAt moves only when /token issued tokens to a request it authenticated (to the minute). */
describe.each(TEST_ENGINES)('a client secret\'s lastUsedAt on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let rp: RelyingParty;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    rp = await fixture.register({ clientType: 'web', scopes: ['openid'] });
  });
  afterAll(() => server?.close());

  const lastUsedAt = async () => (await server.services.clients.getClient(fixture.adminActor, fixture.projectId, rp.clientId)).secrets[0]!.lastUsedAt;

  /** A /token request with the right secret and a code that was never issued: authenticated, refused. */
  const refusedGrant = async (secret = rp.clientSecret!) => {
    const response = await fetch(`${server.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${rp.clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'never-issued-code', redirect_uri: rp.redirectUri, code_verifier: 'v'.repeat(43) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };

  const signInAndRedeem = async () => {
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    return redeemCode(config, request, callback.location!);
  };

  it('does not move on a /token request that issued nothing, wrong secret or refused grant', async () => {
    expect(await lastUsedAt()).toBeNull();
    expect((await refusedGrant('not the secret')).status).toBe(401);
    expect(await refusedGrant()).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await lastUsedAt()).toBeNull();
  });

  it('moves when /token issued tokens, to the minute', async () => {
    const firstUse = server.clock.now();
    expect((await signInAndRedeem()).access_token).toEqual(expect.any(String));
    expect(await lastUsedAt()).toBe(firstUse);

    server.clock.advance(59_000);
    await signInAndRedeem();
    expect(await lastUsedAt()).toBe(firstUse);

    server.clock.advance(1_000);
    await refusedGrant();
    expect(await lastUsedAt()).toBe(firstUse);
    await signInAndRedeem();
    expect(await lastUsedAt()).toBe(firstUse + 60_000);
  });
});

import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isLoginPage, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

describe.each(TEST_ENGINES)('a restart on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  const publishedKids = async () => ((await (await fetch(`${server.issuer}/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort();

  it('loses no token, session, interaction or signing key', async () => {
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const callback = await signInThroughPages(agent, request.url, PERSON);
    const tokens = await redeemCode(config, request, callback.location!);
    const kidsBefore = await publishedKids();

    // An interaction left half-way: the login page is open in another browser.
    const pending = new OidcUserAgent(server.issuer);
    const pendingRequest = await authorizationRequest(config, fixture.web, 'openid profile');
    const loginPage = await pending.follow(pendingRequest.url);
    expect(isLoginPage(loginPage)).toBe(true);

    await server.restart();

    expect(await publishedKids()).toEqual(kidsBefore);
    const jwks = createRemoteJWKSet(new URL(`${server.issuer}/jwks`));
    const verified = await jwtVerify(tokens.id_token!, jwks, { issuer: server.issuer, audience: fixture.web.clientId });
    expect(verified.payload.sub).toBe(fixture.person.subjectId);

    // The access token still opens userinfo.
    expect((await oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).name).toBe('Alice Example');

    // The refresh token still works (and rotates); its ID token is signed with the same key as before.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeProtectedHeader(refreshed.id_token!).kid).toBe(decodeProtectedHeader(tokens.id_token!).kid);

    // The browser session survives: the next authorization needs no sign-in and no consent.
    const again = await authorizationRequest(config, fixture.web, 'openid profile');
    const direct = await agent.follow(again.url);
    expect(direct.location?.startsWith(`${fixture.web.redirectUri}?`)).toBe(true);
    expect((await redeemCode(config, again, direct.location!)).claims()!.sub).toBe(fixture.person.subjectId);

    // The half-done interaction can be finished after the restart.
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(loginPage.body)![1]!;
    const afterLogin = await pending.follow(action, { form: { csrf: csrfTokenOf(loginPage), account: PERSON.account, password: PERSON.password } });
    expect(afterLogin.location?.startsWith(`${fixture.web.redirectUri}?`)).toBe(true);
  });
});

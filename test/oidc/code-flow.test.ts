import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_TOKEN_CLAIMS, USERINFO_SCOPES } from '../../src/domain/relying-party-recipe.ts';
import { CLAIMS_BY_SCOPE } from '../../src/domain/scopes.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { isConsentPage, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

describe.each(TEST_ENGINES)('authorization code flow with PKCE on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  it('signs a person in to a web client whose secret contains -._~, and userinfo holds exactly the granted claims', async () => {
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile email');
    const agent = new OidcUserAgent(server.issuer);
    const callback = await signInThroughPages(agent, request.url, PERSON);
    expect(callback.status).toBe(303);
    expect(callback.location?.startsWith(`${fixture.web.redirectUri}?`)).toBe(true);
    expect(new URL(callback.location!).searchParams.get('state')).toBe(request.state);

    const tokens = await redeemCode(config, request, callback.location!);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toBeUndefined();
    const idClaims = tokens.claims()!;
    expect(idClaims.sub).toBe(fixture.person.subjectId);
    expect(idClaims.aud).toBe(fixture.web.clientId);
    expect(idClaims.iss).toBe(server.issuer);
    // As the relying-party recipe says: the ID token carries its listed claims and no profile data, which comes from userinfo.
    for (const claim of ID_TOKEN_CLAIMS.filter((name) => name !== 'nonce')) expect(idClaims, claim).toHaveProperty(claim);
    for (const scope of USERINFO_SCOPES) for (const claim of CLAIMS_BY_SCOPE[scope]) expect(idClaims, claim).not.toHaveProperty(claim);

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId);
    expect(userinfo).toEqual({
      sub: fixture.person.subjectId,
      name: 'Alice Example',
      preferred_username: 'alice',
      email: 'alice@example.edu',
      email_verified: true,
    });

    const used = await server.db.selectFrom('client_secrets').select('last_used_at').where('client_id', '=', fixture.web.clientId).executeTakeFirstOrThrow();
    expect(used.last_used_at).not.toBeNull();
  });

  it('signs a person in to a spa client (public, PKCE) and releases the student claim only with the student scope', async () => {
    const config = await discoverAs(server.issuer, fixture.spa);
    const request = await authorizationRequest(config, fixture.spa, 'openid student');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    const tokens = await redeemCode(config, request, callback.location!);
    expect(tokens.refresh_token).toBeUndefined();
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId);
    expect(userinfo).toEqual({ sub: fixture.person.subjectId, student_status: 'active' });
  });

  it('lets a spa call /token from the origin of its redirect URI, and from no other origin', async () => {
    const config = await discoverAs(server.issuer, fixture.spa);
    const request = await authorizationRequest(config, fixture.spa, 'openid');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    const code = new URL(callback.location!).searchParams.get('code')!;
    const tokenCall = (origin: string) =>
      fetch(`${server.issuer}/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: fixture.spa.clientId, code, redirect_uri: fixture.spa.redirectUri, code_verifier: request.codeVerifier }),
      });
    const foreign = await tokenCall('https://evil.example');
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await tokenCall('http://127.0.0.1:9');
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:9');
  });

  it('remembers consent per client and scope set: the same scopes again skip the consent page, a new scope asks again', async () => {
    const rp = await fixture.register({ clientType: 'web', scopes: ['openid', 'profile', 'email'] });
    const config = await discoverAs(server.issuer, rp);
    const consentPages: string[] = [];
    const onConsentPage = () => consentPages.push('shown');

    const first = await authorizationRequest(config, rp, 'openid profile');
    const firstCallback = await signInThroughPages(new OidcUserAgent(server.issuer), first.url, PERSON, { onConsentPage });
    expect(consentPages).toHaveLength(1);
    await redeemCode(config, first, firstCallback.location!);

    // A new browser (a new session): sign in again, but no consent page for the same scopes.
    const second = await authorizationRequest(config, rp, 'openid profile');
    const secondCallback = await signInThroughPages(new OidcUserAgent(server.issuer), second.url, PERSON, { onConsentPage });
    expect(consentPages).toHaveLength(1);
    expect((await redeemCode(config, second, secondCallback.location!)).claims()!.sub).toBe(fixture.person.subjectId);

    const third = await authorizationRequest(config, rp, 'openid profile email');
    const agent = new OidcUserAgent(server.issuer);
    const thirdCallback = await signInThroughPages(agent, third.url, PERSON, { onConsentPage });
    expect(consentPages).toHaveLength(2);
    await redeemCode(config, third, thirdCallback.location!);

    // Same browser, same scopes: straight back to the application.
    const fourth = await authorizationRequest(config, rp, 'openid email');
    const direct = await agent.follow(fourth.url);
    expect(isConsentPage(direct)).toBe(false);
    expect(direct.location?.startsWith(rp.redirectUri)).toBe(true);
  });

  it('returns access_denied to the application when the person denies consent', async () => {
    const config = await discoverAs(server.issuer, fixture.spa);
    const request = await authorizationRequest(config, fixture.spa, 'openid email');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON, { consent: 'deny' });
    const params = new URL(callback.location!).searchParams;
    expect(callback.location?.startsWith(fixture.spa.redirectUri)).toBe(true);
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('state')).toBe(request.state);
  });
});

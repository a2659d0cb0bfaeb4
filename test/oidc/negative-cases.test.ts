import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages, type PageResponse } from '../helpers/oidc-user-agent.ts';

describe.each(TEST_ENGINES)('requests the provider refuses, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  /** A hand-made authorization request, so a test can get any parameter wrong. */
  function authorizeUrl(rp: RelyingParty, overrides: Record<string, string | undefined>): string {
    const params: Record<string, string | undefined> = {
      client_id: rp.clientId,
      response_type: 'code',
      redirect_uri: rp.redirectUri,
      scope: 'openid',
      state: 'state-123',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ...overrides,
    };
    const url = new URL('/auth', server.issuer);
    for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
    return url.href;
  }

  async function errorRedirect(rp: RelyingParty, page: PageResponse) {
    expect(page.status).toBe(303);
    expect(page.location?.startsWith(`${rp.redirectUri}?`)).toBe(true);
    const params = new URL(page.location!).searchParams;
    expect(params.get('state')).toBe('state-123');
    return { error: params.get('error'), description: params.get('error_description') ?? '' };
  }

  function expectErrorPage(page: PageResponse, text: RegExp) {
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.body).toMatch(text);
  }

  async function codeFor(rp: RelyingParty, scope = 'openid') {
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, scope);
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    return { config, request, callbackUrl: callback.location! };
  }

  /** POST /token by hand, with Basic credentials encoded as RFC 6749 2.3.1 asks. */
  async function tokenRequest(clientId: string, secret: string | undefined, body: Record<string, string>) {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (secret !== undefined) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const form = secret === undefined ? { client_id: clientId, ...body } : body;
    const response = await fetch(new URL('/token', server.issuer), { method: 'POST', headers, body: new URLSearchParams(form) });
    return { status: response.status, cacheControl: response.headers.get('cache-control'), body: (await response.json()) as Record<string, string> };
  }

  it('does not redirect to an unregistered redirect URI: it shows an error page', async () => {
    const page = await new OidcUserAgent(server.issuer).request(authorizeUrl(fixture.spa, { redirect_uri: 'http://127.0.0.1:9/evil/callback' }));
    expectErrorPage(page, /has not registered/);
  });

  it('does not accept a redirect URI that only starts like the registered one', async () => {
    const page = await new OidcUserAgent(server.issuer).request(authorizeUrl(fixture.spa, { redirect_uri: `${fixture.spa.redirectUri}/extra` }));
    expectErrorPage(page, /has not registered/);
  });

  it('matches a native app\'s redirect URIs exactly: no other loopback port, and its private-use scheme as registered', async () => {
    const project = await server.services.projects.createProject(fixture.adminActor, { name: 'Native' });
    const { client } = await server.services.clients.registerClient(fixture.adminActor, project.projectId, {
      clientType: 'spa',
      displayName: 'Native app',
      redirectUris: ['com.example.app:/callback', 'http://127.0.0.1:8080/cb'],
      scopeWhitelist: ['openid'],
    });
    const native = { clientId: client.clientId, redirectUri: 'com.example.app:/callback', postLogoutRedirectUri: '' };
    const otherPort = await new OidcUserAgent(server.issuer).request(authorizeUrl(native, { redirect_uri: 'http://127.0.0.1:9999/cb' }));
    expectErrorPage(otherPort, /has not registered/);
    const scheme = await new OidcUserAgent(server.issuer).request(authorizeUrl(native, { code_challenge: undefined, code_challenge_method: undefined }));
    expect((await errorRedirect(native, scheme)).error).toBe('invalid_request');
  });

  it('refuses a spa request without PKCE', async () => {
    const page = await new OidcUserAgent(server.issuer).request(authorizeUrl(fixture.spa, { code_challenge: undefined, code_challenge_method: undefined }));
    const { error, description } = await errorRedirect(fixture.spa, page);
    expect(error).toBe('invalid_request');
    expect(description).toMatch(/PKCE/);
  });

  it('refuses a web request without PKCE unless the client turned requirePkce off', async () => {
    const page = await new OidcUserAgent(server.issuer).request(authorizeUrl(fixture.web, { code_challenge: undefined, code_challenge_method: undefined }));
    expect((await errorRedirect(fixture.web, page)).error).toBe('invalid_request');

    const lax = await fixture.register({ clientType: 'web', requirePkce: false });
    const config = await discoverAs(server.issuer, lax);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: lax.redirectUri, scope: 'openid', state: 'no-pkce' });
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), url.href, PERSON);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback.location!), { expectedState: 'no-pkce' });
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  it('refuses the plain PKCE method', async () => {
    const page = await new OidcUserAgent(server.issuer).request(
      authorizeUrl(fixture.spa, { code_challenge: 'a-plain-code-verifier-that-is-long-enough-0123456789', code_challenge_method: 'plain' }),
    );
    const { error, description } = await errorRedirect(fixture.spa, page);
    expect(error).toBe('invalid_request');
    expect(description).toMatch(/code_challenge_method/);
  });

  it('refuses a replayed authorization code and revokes what the first redemption issued', async () => {
    const { config, request, callbackUrl } = await codeFor(fixture.spa, 'openid profile');
    const tokens = await redeemCode(config, request, callbackUrl);
    expect(await oauthError(redeemCode(config, request, callbackUrl))).toBe('invalid_grant');
    await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
  });

  it('refuses a wrong client secret with 401 invalid_client', async () => {
    const { request, callbackUrl } = await codeFor(fixture.web);
    const code = new URL(callbackUrl).searchParams.get('code')!;
    const response = await tokenRequest(fixture.web.clientId, 'not-the-secret-at-all', {
      grant_type: 'authorization_code', code, redirect_uri: fixture.web.redirectUri, code_verifier: request.codeVerifier,
    });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('invalid_client');
    expect(response.cacheControl).toBe('no-store');
  });

  it('accepts only client_secret_basic for a web client, not the secret in the body', async () => {
    const { request, callbackUrl } = await codeFor(fixture.web);
    const code = new URL(callbackUrl).searchParams.get('code')!;
    const response = await fetch(new URL('/token', server.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code', code, redirect_uri: fixture.web.redirectUri, code_verifier: request.codeVerifier,
        client_id: fixture.web.clientId, client_secret: fixture.web.clientSecret!,
      }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('refuses an unknown client at /auth (error page, no redirect) and at /token (401)', async () => {
    const page = await new OidcUserAgent(server.issuer).request(authorizeUrl({ ...fixture.spa, clientId: 'no-such-client' }, {}));
    expectErrorPage(page, /unknown to Sesame/);
    const response = await tokenRequest('no-such-client', 'whatever-secret-1234', { grant_type: 'authorization_code', code: 'x', redirect_uri: fixture.web.redirectUri });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('invalid_client');
  });

  it('refuses a disabled client at /auth and /token at once, and serves it again once re-enabled', async () => {
    const rp = await fixture.register({ clientType: 'web' });
    const { config, request, callbackUrl } = await codeFor(rp);
    const client = await server.services.clients.getClient(fixture.adminActor, fixture.projectId, rp.clientId);
    const disabled = await server.services.clients.updateClientMetadata(fixture.adminActor, fixture.projectId, rp.clientId, { clientVersion: client.clientVersion, status: 'disabled' });

    expect(await oauthError(redeemCode(config, request, callbackUrl))).toBe('invalid_client');
    expectErrorPage(await new OidcUserAgent(server.issuer).request(authorizeUrl(rp, {})), /not allowed to sign people in/);

    await server.services.clients.updateClientMetadata(fixture.adminActor, fixture.projectId, rp.clientId, { clientVersion: disabled.clientVersion, status: 'active' });
    const again = await codeFor(rp);
    expect((await redeemCode(again.config, again.request, again.callbackUrl)).access_token).toEqual(expect.any(String));
  });

  it('refuses the clients of an archived project at /auth and /token', async () => {
    const project = await server.services.projects.createProject(fixture.adminActor, { name: 'Soon archived' });
    const rp = await fixture.register({ clientType: 'spa', projectId: project.projectId });
    const { config, request, callbackUrl } = await codeFor(rp);
    await server.services.projects.updateProject(fixture.adminActor, project.projectId, { expectedProjectVersion: project.version, status: 'archived' });

    expect(await oauthError(redeemCode(config, request, callbackUrl))).toBe('invalid_client');
    expectErrorPage(await new OidcUserAgent(server.issuer).request(authorizeUrl(rp, {})), /not allowed to sign people in/);
  });

  it('refuses a scope outside the client whitelist', async () => {
    const rp = await fixture.register({ clientType: 'spa', scopes: ['openid', 'profile'] });
    const page = await new OidcUserAgent(server.issuer).request(authorizeUrl(rp, { scope: 'openid email' }));
    const { error } = await errorRedirect(rp, page);
    expect(error).toBe('invalid_scope');
  });

  it('refuses offline_access from a spa client', async () => {
    const page = await new OidcUserAgent(server.issuer).request(authorizeUrl(fixture.spa, { scope: 'openid offline_access', prompt: 'consent' }));
    const { error, description } = await errorRedirect(fixture.spa, page);
    expect(error).toBe('invalid_scope');
    expect(description).toMatch(/offline_access/);
    const withoutConsentPrompt = await new OidcUserAgent(server.issuer).request(authorizeUrl(fixture.spa, { scope: 'openid offline_access' }));
    expect((await errorRedirect(fixture.spa, withoutConsentPrompt)).error).toBe('invalid_scope');
  });

  it('refuses response types other than code (no implicit or hybrid flow)', async () => {
    for (const responseType of ['token', 'id_token', 'code id_token', 'id_token token']) {
      const page = await new OidcUserAgent(server.issuer).request(authorizeUrl(fixture.spa, { response_type: responseType, nonce: 'n-1' }));
      expect(page.status).toBe(303);
      const location = new URL(page.location!);
      const params = new URLSearchParams(location.search || location.hash.slice(1));
      expect(params.get('error')).toBe('unsupported_response_type');
      expect(params.get('code')).toBeNull();
      expect(params.get('access_token')).toBeNull();
    }
  });

  it('refuses the client credentials grant', async () => {
    const response = await tokenRequest(fixture.web.clientId, fixture.web.clientSecret, { grant_type: 'client_credentials', scope: 'openid' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('unsupported_grant_type');
  });

  it('accepts a retiring secret during its grace period, and neither a revoked nor an expired one', async () => {
    const rp = await fixture.register({ clientType: 'web' });
    const clients = server.services.clients;
    const version = async () => (await clients.getClient(fixture.adminActor, fixture.projectId, rp.clientId)).clientVersion;
    const works = async (secret: string) => {
      const { config, request, callbackUrl } = await codeFor({ ...rp, clientSecret: secret });
      return (await oauthError(redeemCode(config, request, callbackUrl))) ?? 'ok';
    };

    const first = rp.clientSecret!;
    const second = (await clients.rotateClientSecret(fixture.adminActor, fixture.projectId, rp.clientId, { clientVersion: await version(), gracePeriodSeconds: 600 })).secret;
    expect(await works(first)).toBe('ok');
    expect(await works(second.value)).toBe('ok');

    const retiring = (await clients.getClient(fixture.adminActor, fixture.projectId, rp.clientId)).secrets.find((s) => s.status === 'retiring')!;
    await clients.revokeClientSecret(fixture.adminActor, fixture.projectId, rp.clientId, retiring.secretId, { clientVersion: await version() });
    expect(await works(first)).toBe('invalid_client');

    const third = (await clients.rotateClientSecret(fixture.adminActor, fixture.projectId, rp.clientId, { clientVersion: await version(), gracePeriodSeconds: 600 })).secret;
    expect(await works(second.value)).toBe('ok');
    server.clock.advance(601_000);
    try {
      expect(await works(second.value)).toBe('invalid_client');
      expect(await works(third.value)).toBe('ok');
    } finally {
      server.clock.advance(-601_000);
    }
  });
});

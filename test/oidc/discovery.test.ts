import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';

describe.each(TEST_ENGINES)('discovery and keys on %s', (engine) => {
  let server: OidcTestServer;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
  });
  afterAll(() => server.close());

  it('answers POST at /auth and /session/end (which stay GET-only) with Sesame\'s 404, not Koa\'s plain text', async () => {
    for (const path of ['/auth', '/auth/some-uid', '/session/end']) {
      const response = await fetch(`${server.issuer}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'client_id=someone&response_type=code',
      });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'not_found', error_description: expect.stringContaining(path) });
    }
  });

  it('treats ids holding NUL (which PostgreSQL text cannot store) as unknown, never a 500', async () => {
    const query = new URLSearchParams({ client_id: 'nul\u0000inside', redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid' });
    const authorization = await fetch(`${server.issuer}/auth?${query}`, { redirect: 'manual' });
    expect(authorization.status).toBe(400);
    expect(await authorization.text()).toContain('client');
    const resume = await fetch(`${server.issuer}/auth/uid%00inside`, { redirect: 'manual', headers: { cookie: '_interaction_resume=uid%00inside' } });
    expect(resume.status).toBeLessThan(500);
  });

  it('advertises only what works', async () => {
    const response = await fetch(`${server.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      issuer: server.issuer,
      authorization_endpoint: `${server.issuer}/auth`,
      token_endpoint: `${server.issuer}/token`,
      userinfo_endpoint: `${server.issuer}/userinfo`,
      jwks_uri: `${server.issuer}/jwks`,
      end_session_endpoint: `${server.issuer}/session/end`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
      claims_parameter_supported: false,
      request_uri_parameter_supported: false,
    });
    expect(document.ui_locales_supported).toEqual(['en', 'zh-CN']);
    // Sesame's own resource scopes too (DESIGN 9), so an OAuth client reading only this document knows them.
    expect((document.scopes_supported as string[]).toSorted()).toEqual(['email', 'groups', 'offline_access', 'openid', 'profile', 'sesame:admin', 'sesame:read', 'sesame:write', 'student']);
    const oauthMetadata = (await (await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(oauthMetadata.scopes_supported).toEqual(document.scopes_supported);
    expect((document.id_token_signing_alg_values_supported as string[]).toSorted()).toEqual(['ES256', 'RS256']);
    expect(document.claims_supported).toEqual(expect.arrayContaining(['sub', 'name', 'preferred_username', 'email', 'email_verified', 'student_status', 'groups']));
    for (const absent of [
      'registration_endpoint',
      'introspection_endpoint',
      'revocation_endpoint',
      'device_authorization_endpoint',
      'pushed_authorization_request_endpoint',
      'backchannel_authentication_endpoint',
      'dpop_signing_alg_values_supported',
      'request_parameter_supported',
    ]) {
      expect(document, absent).not.toHaveProperty(absent);
    }
    expect(JSON.stringify(document)).not.toMatch(/implicit|client_credentials|device_code|id_token token/);
  });

  it('serves no endpoint for what it does not support', async () => {
    for (const path of ['/reg', '/token/introspection', '/token/revocation', '/device/auth', '/request', '/me']) {
      const response = await fetch(`${server.issuer}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' });
      expect(response.status, path).toBe(404);
    }
  });

  it('publishes the public RS256 and ES256 keys, and no private parameter', async () => {
    const { keys } = (await (await fetch(`${server.issuer}/jwks`)).json()) as { keys: Record<string, string>[] };
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of keys) {
      expect(key.kid).toEqual(expect.any(String));
      expect(key.use).toBe('sig');
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key, secret).not.toHaveProperty(secret);
    }
  });

  it('marks token responses and errors no-store, and leaves /api and /console to Fastify', async () => {
    const token = await fetch(`${server.issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=x&client_id=nobody' });
    expect(token.status).toBe(401);
    expect(token.headers.get('cache-control')).toBe('no-store');
    const auth = await fetch(`${server.issuer}/auth?client_id=nobody&response_type=code&scope=openid`, { headers: { accept: 'text/html' } });
    expect(auth.status).toBe(400);
    expect(auth.headers.get('cache-control')).toBe('no-store');
    const api = await fetch(`${server.issuer}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: string }).error).toBe('not_found');
  });
});

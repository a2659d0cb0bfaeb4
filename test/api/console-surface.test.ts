import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient, type ConsoleClient } from './helpers/api-clients.ts';
import { snapshotDatabase } from './helpers/db-snapshot.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

const setCookies = (headers: Record<string, unknown>): string[] => {
  const value = headers['set-cookie'];
  return Array.isArray(value) ? value : value ? [String(value)] : [];
};

describe.each(TEST_ENGINES)('console surface (Management API) on %s', (engine) => {
  let ctx: TestContext;
  let carol: ConsoleClient;
  let projectId: string;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await createAccounts(ctx.services, ['carol', 'dan']);
    carol = createConsoleClient(ctx.app);
  });
  afterAll(() => ctx.close());

  it('hands out a login-CSRF token and its cookie while signed out', async () => {
    const context = await carol.context();
    expect(context.status).toBe(200);
    expect(context.body).toEqual({ authenticated: false, csrfToken: expect.any(String), signInProviders: [] });
    const [cookie] = setCookies(context.headers);
    expect(cookie).toMatch(/^sesame_login_csrf=[0-9A-Za-z]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const again = await carol.context();
    expect(again.body.csrfToken).toBe(context.body.csrfToken);
  });

  it('refuses a login without the login-CSRF token, with a wrong one, or without its cookie, and creates no session', async () => {
    const before = await snapshotDatabase(ctx.db);
    const withoutHeader = await carol.request({ method: 'POST', path: '/auth/login', body: { account: 'carol', password: PASSWORD }, withCsrf: false });
    expect(withoutHeader.status).toBe(403);
    expect(withoutHeader.body.error).toBe('csrf_failed');
    const wrongToken = await carol.request({ method: 'POST', path: '/auth/login', body: { account: 'carol', password: PASSWORD }, headers: { 'x-csrf-token': 'forged' } });
    expect(wrongToken.body.error).toBe('csrf_failed');
    const stranger = createConsoleClient(ctx.app);
    stranger.csrfToken = carol.csrfToken;
    const withoutCookie = await stranger.call('POST', '/auth/login', { account: 'carol', password: PASSWORD });
    expect(withoutCookie.status).toBe(403);
    expect(withoutCookie.body.error).toBe('csrf_failed');
    for (const response of [withoutHeader, wrongToken, withoutCookie]) expect(setCookies(response.headers).some((c) => c.startsWith('sesame_console='))).toBe(false);
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });

  it('signs in with the login-CSRF token: an HttpOnly session cookie, no token in the body', async () => {
    const login = await carol.login('carol', PASSWORD);
    expect(login.body).toEqual({
      expiresIn: 86400,
      csrfToken: expect.any(String),
      user: expect.objectContaining({ account: 'carol', isAdmin: false }),
      clientSecretPolicy: { defaultGraceSeconds: 3600, maxGraceSeconds: 604800 },
      enrolmentRequired: false,
    });
    const cookies = setCookies(login.headers);
    const session = cookies.find((c) => c.startsWith('sesame_console='));
    expect(session).toMatch(/^sesame_console=[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400$/);
    expect(cookies.some((c) => /^sesame_login_csrf=; .*Max-Age=0$/.test(c))).toBe(true);
    const token = carol.jar.get('sesame_console')!;
    expect(login.text).not.toContain(token);
    const row = await ctx.db.selectFrom('sessions').selectAll().where('token_digest', '=', sha256Hex(token)).executeTakeFirstOrThrow();
    expect(row.kind).toBe('console');

    const context = await carol.context();
    expect(context.body).toMatchObject({ authenticated: true, csrfToken: login.body.csrfToken, user: { account: 'carol' } });
    const created = await carol.call('POST', '/projects', { name: 'Console project' });
    expect(created.status).toBe(201);
    projectId = created.body.project.projectId;
  });

  it('refuses every state-changing request without the CSRF header, or with another session\'s, and changes nothing', async () => {
    const dan = createConsoleClient(ctx.app);
    await dan.login('dan', PASSWORD);
    const project = await carol.call('GET', `/projects/${projectId}`);
    expect(project.status).toBe(200);
    const version = project.body.project.version;
    const writes = [
      { method: 'POST' as const, path: '/projects', body: { name: 'Sneaky' } },
      { method: 'PATCH' as const, path: `/projects/${projectId}`, body: { expectedProjectVersion: version, name: 'Renamed' } },
      { method: 'POST' as const, path: `/projects/${projectId}/clients`, body: { clientType: 'spa', displayName: 'X', redirectUris: ['http://localhost/cb'], scopeWhitelist: ['openid'] } },
      { method: 'DELETE' as const, path: `/projects/${projectId}/members/nobody`, body: { expectedProjectVersion: version } },
      { method: 'POST' as const, path: '/auth/logout' },
    ];
    const before = await snapshotDatabase(ctx.db);
    for (const write of writes) {
      for (const headers of [{}, { 'x-csrf-token': dan.csrfToken! }, { 'x-csrf-token': '' }] as Record<string, string>[]) {
        const response = await carol.request({ ...write, withCsrf: false, headers });
        expect(response.status, `${write.method} ${write.path}`).toBe(403);
        expect(response.body.error).toBe('csrf_failed');
      }
    }
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
    expect((await carol.call('GET', '/auth/me')).status).toBe(200);
  });

  it('keeps console sessions and agent tokens apart', async () => {
    const agent = createAgentClient(ctx.app);
    await agent.login('carol', PASSWORD);
    const cookieAsBearer = await ctx.app.inject({ method: 'GET', url: '/api/agent/auth/me', headers: { authorization: `Bearer ${carol.jar.get('sesame_console')}` } });
    expect(cookieAsBearer.statusCode).toBe(401);
    const bearerAsCookie = await ctx.app.inject({ method: 'GET', url: '/api/management/auth/me', headers: { cookie: `sesame_console=${agent.token}` } });
    expect(bearerAsCookie.statusCode).toBe(401);
    const bearerOnConsole = await ctx.app.inject({ method: 'GET', url: '/api/management/auth/me', headers: { authorization: `Bearer ${agent.token}` } });
    expect(bearerOnConsole.json()).toMatchObject({ error: 'login_required' });
  });

  it('logs out with the CSRF header: the cookie is cleared and the session is dead at once', async () => {
    const token = carol.jar.get('sesame_console')!;
    const logout = await carol.call('POST', '/auth/logout');
    expect(logout.status).toBe(204);
    expect(setCookies(logout.headers)).toContainEqual(expect.stringMatching(/^sesame_console=; .*Max-Age=0$/));
    const replayed = await ctx.app.inject({ method: 'GET', url: '/api/management/auth/me', headers: { cookie: `sesame_console=${token}` } });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe('login_required');
    const context = await carol.context();
    expect(context.body.authenticated).toBe(false);
  });
});

describe.each(TEST_ENGINES)('console cookies behind an https issuer on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { OIDC_ISSUER: 'https://id.example.com' });
    await createAccounts(ctx.services, ['erin']);
  });
  afterAll(() => ctx.close());

  it('uses __Host- prefixed, Secure cookies', async () => {
    const erin = createConsoleClient(ctx.app);
    const context = await erin.context();
    expect(setCookies(context.headers)[0]).toMatch(/^__Host-sesame_login_csrf=[0-9A-Za-z]+; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=\d+$/);
    const login = await erin.login('erin', PASSWORD);
    expect(setCookies(login.headers).find((c) => c.startsWith('__Host-sesame_console='))).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=86400$/);
    expect((await erin.call('GET', '/auth/me')).status).toBe(200);
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/management/openapi.json' })).json();
    expect(document.components.securitySchemes.sessionCookie.name).toBe('__Host-sesame_console');
    expect(document.servers).toEqual([{ url: 'https://id.example.com/api/management' }]);
  });
});

import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_POLICY } from '../../src/domain/clients.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, type AgentClient, type ApiResponse } from './helpers/api-clients.ts';
import { createOpenApiChecker, type OpenApiChecker } from './helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

/**
 * Walks the specification's typical sequences on the Agent API the way an AI assistant would:
 * it starts from /instructions, reads the OpenAPI document, and then only uses what those say.
 * Every response is checked against the document it fetched.
 */
describe.each(TEST_ENGINES)('Agent API contract on %s', (engine) => {
  let ctx: TestContext;
  let checker: OpenApiChecker | undefined;
  const problems: string[] = [];
  const seen: { method: string; path: string; response: ApiResponse }[] = [];
  let accounts: Awaited<ReturnType<typeof createAccounts<'alice' | 'bob'>>>;

  const observe = (call: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; response: ApiResponse }) => {
    seen.push(call);
    if (call.response.headers['cache-control'] !== 'no-store') problems.push(`${call.method} ${call.path}: Cache-Control is ${String(call.response.headers['cache-control'])}`);
    if (checker) problems.push(...checker.check(call.method, call.path, call.response));
  };
  let alice: AgentClient;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    accounts = await createAccounts(ctx.services, ['alice', 'bob']);
    alice = createAgentClient(ctx.app, observe);
  });
  afterAll(() => ctx.close());

  // Shared across the steps below, as an assistant's memory would be.
  let projectId: string;
  let webClientId: string;
  let webSecret: string;
  let rotatedSecret: string;

  it('finds the instructions, with addresses from OIDC_ISSUER whatever the request headers say', async () => {
    const response = await alice.request({ method: 'GET', path: '/instructions', headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      version: packageJson.version,
      baseUrl: 'http://localhost:3000/api/agent',
      openapiUrl: 'http://localhost:3000/api/agent/openapi.json',
      contentType: 'text/markdown',
      prompt: expect.any(String),
    });
    const prompt: string = response.body.prompt;
    for (const code of ERROR_CODES) expect(prompt).toContain(`\`${code}\``);
    for (const heading of ['Discovery', 'Logging in', 'Change redirect URIs', 'Rotate a web client', 'Add a member', 'version_conflict', 'One-time secrets', 'Security caveats']) {
      expect(prompt).toContain(heading);
    }
    expect(prompt).toContain(String(SECRET_POLICY.maxGraceSeconds));
    expect(prompt).not.toContain('evil.example');
  });

  it('reads a valid OpenAPI 3.1 document that points back to the instructions', async () => {
    const response = await alice.call('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const validation = await new Validator().validate(response.body);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.info['x-agent-instructions']).toBe('http://localhost:3000/api/agent/instructions');
    checker = createOpenApiChecker(response.body);
    problems.push(...checker.check('GET', '/openapi.json', response), ...seen.flatMap((s) => checker!.check(s.method as 'GET', s.path, s.response)));
  });

  it('refuses a wrong password with one answer, and then logs in', async () => {
    const wrong = await alice.call('POST', '/auth/login', { account: 'alice', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_credentials');
    const unknown = await alice.call('POST', '/auth/login', { account: 'nobody', password: PASSWORD });
    expect(unknown.body).toEqual(wrong.body);

    const response = await alice.login('alice', PASSWORD);
    expect(response.body).toEqual({
      accessToken: expect.stringMatching(/^[0-9A-Za-z]{43}$/),
      tokenType: 'Bearer',
      expiresIn: 86400,
      user: { subjectId: accounts.alice.subjectId, account: 'alice', displayName: 'Alice', isAdmin: false },
      clientSecretPolicy: { defaultGraceSeconds: 3600, maxGraceSeconds: 604800 },
      enrolmentRequired: false,
    });
    const me = await alice.call('GET', '/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.subjectId).toBe(accounts.alice.subjectId);
  });

  it('creates a project and becomes its owner', async () => {
    const response = await alice.call('POST', '/projects', { name: 'Course portal', description: 'Sign-in for the course portal' });
    expect(response.status).toBe(201);
    expect(response.body.project).toMatchObject({ name: 'Course portal', status: 'active', version: 1, role: 'owner' });
    expect(response.body.project.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    projectId = response.body.project.projectId;
    const list = await alice.call('GET', '/projects');
    expect(list.body.projects.map((p: { projectId: string }) => p.projectId)).toEqual([projectId]);
  });

  it('registers a web client, whose secret is shown once, and a spa client, which has none', async () => {
    const web = await alice.call('POST', `/projects/${projectId}/clients`, {
      clientType: 'web',
      displayName: 'Portal',
      redirectUris: ['https://portal.example.com/callback'],
      scopeWhitelist: ['openid', 'profile', 'email'],
    });
    expect(web.status).toBe(201);
    expect(web.body.clientSecret).toEqual(expect.any(String));
    expect(web.body.secret.value).toBe(web.body.clientSecret);
    expect(web.body.client).toMatchObject({ clientType: 'web', requirePkce: true, clientVersion: 1, revision: 1, status: 'active' });
    expect(web.body.client.secrets).toEqual([expect.objectContaining({ secretId: web.body.secret.secretId, status: 'active', expiresAt: null, lastUsedAt: null })]);
    webClientId = web.body.client.clientId;
    webSecret = web.body.clientSecret;

    const spa = await alice.call('POST', `/projects/${projectId}/clients`, {
      clientType: 'spa',
      displayName: 'Portal app',
      redirectUris: ['http://localhost:5173/callback'],
      scopeWhitelist: ['openid', 'profile'],
    });
    expect(spa.status).toBe(201);
    expect(spa.body).not.toHaveProperty('clientSecret');
    expect(spa.body).not.toHaveProperty('secret');
    expect(spa.body.client).toMatchObject({ clientType: 'spa', requirePkce: true, secrets: [] });

    const refused = await alice.call('POST', `/projects/${projectId}/clients`, { clientType: 'spa', displayName: 'Bad', redirectUris: ['http://portal.example.com/cb'], scopeWhitelist: ['openid', 'offline_access'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_client_metadata');
    expect(Object.keys(refused.body.field_errors).sort()).toEqual(['redirectUris.0', 'scopeWhitelist']);
  });

  it('changes redirect URIs: GET the client for clientVersion, PUT the revision, recover from a stale version', async () => {
    const current = await alice.call('GET', `/projects/${projectId}/clients/${webClientId}`);
    expect(current.status).toBe(200);
    const { clientVersion, redirectUris, scopeWhitelist } = current.body.client;
    const revision = { redirectUris: [...redirectUris, 'https://portal.example.com/auth/callback'], scopeWhitelist };
    const changed = await alice.call('PUT', `/projects/${projectId}/clients/${webClientId}/revision`, { clientVersion, ...revision });
    expect(changed.status).toBe(200);
    expect(changed.body.client).toMatchObject({ redirectUris: revision.redirectUris, revision: 2, clientVersion: clientVersion + 1 });

    const stale = await alice.call('PUT', `/projects/${projectId}/clients/${webClientId}/revision`, { clientVersion, redirectUris: ['https://portal.example.com/other'], scopeWhitelist });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    // The recovery the instructions describe: read again, retry with the new version.
    const reread = await alice.call('GET', `/projects/${projectId}/clients/${webClientId}`);
    const retried = await alice.call('PUT', `/projects/${projectId}/clients/${webClientId}/revision`, {
      clientVersion: reread.body.client.clientVersion,
      redirectUris: reread.body.client.redirectUris,
      scopeWhitelist: ['openid', 'profile'],
    });
    expect(retried.status).toBe(200);
    expect(retried.body.client).toMatchObject({ scopeWhitelist: ['openid', 'profile'], redirectUris: revision.redirectUris, revision: 3 });
  });

  it('rotates the secret with clientVersion; the old one retires, the new one is shown once', async () => {
    const current = await alice.call('GET', `/projects/${projectId}/clients/${webClientId}`);
    const oldSecretId = current.body.client.secrets[0].secretId;
    const rotated = await alice.call('POST', `/projects/${projectId}/clients/${webClientId}/secrets/rotate`, { clientVersion: current.body.client.clientVersion, gracePeriodSeconds: 600 });
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret.value).toBe(rotated.body.clientSecret);
    expect(rotated.body.clientSecret).not.toBe(webSecret);
    rotatedSecret = rotated.body.clientSecret;
    const byId = Object.fromEntries(rotated.body.client.secrets.map((s: { secretId: string }) => [s.secretId, s]));
    expect(byId[oldSecretId]).toMatchObject({ status: 'retiring', expiresAt: new Date(ctx.clock.now() + 600_000).toISOString() });
    expect(byId[rotated.body.secret.secretId]).toMatchObject({ status: 'active' });
    expect(rotated.body.client.clientVersion).toBe(current.body.client.clientVersion + 1);

    const again = await alice.call('POST', `/projects/${projectId}/clients/${webClientId}/secrets/rotate`, { clientVersion: rotated.body.client.clientVersion });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('secret_limit_exceeded');
  });

  it('adds a member: look the user up, read the project version, POST with expectedProjectVersion', async () => {
    const lookup = await alice.call('GET', '/users/lookup?account=BOB');
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({ user: { subjectId: accounts.bob.subjectId, account: 'bob', displayName: 'Bob' } });
    const project = await alice.call('GET', `/projects/${projectId}`);
    const version = project.body.project.version;
    const added = await alice.call('POST', `/projects/${projectId}/members`, { subjectId: lookup.body.user.subjectId, role: 'maintainer', expectedProjectVersion: version });
    expect(added.status).toBe(201);
    expect(added.body.member).toMatchObject({ subjectId: accounts.bob.subjectId, account: 'bob', role: 'maintainer' });
    expect(added.body.project.version).toBe(version + 1);
    const duplicate = await alice.call('POST', `/projects/${projectId}/members`, { subjectId: accounts.bob.subjectId, expectedProjectVersion: version + 1 });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toBe('member_exists');
    const members = await alice.call('GET', `/projects/${projectId}/members`);
    expect(members.body.members.map((m: { account: string; role: string }) => `${m.account}:${m.role}`).sort()).toEqual(['alice:owner', 'bob:maintainer']);
  });

  it('transfers ownership; the old owner becomes a maintainer', async () => {
    const project = await alice.call('GET', `/projects/${projectId}`);
    const transferred = await alice.call('POST', `/projects/${projectId}/ownership/transfer`, { toSubjectId: accounts.bob.subjectId, expectedProjectVersion: project.body.project.version });
    expect(transferred.status).toBe(200);
    expect(transferred.body.project).toMatchObject({ role: 'maintainer', capabilities: ['read', 'write_clients'], version: project.body.project.version + 1 });
    const archiveAttempt = await alice.call('PATCH', `/projects/${projectId}`, { expectedProjectVersion: transferred.body.project.version, status: 'archived' });
    expect(archiveAttempt.status).toBe(403);
    expect(archiveAttempt.body.error).toBe('forbidden');
  });

  it('archives as the new owner; the project is then read-only', async () => {
    const bob = createAgentClient(ctx.app, observe);
    await bob.login('bob', PASSWORD);
    const project = await bob.call('GET', `/projects/${projectId}`);
    expect(project.body.project.role).toBe('owner');
    const archived = await bob.call('PATCH', `/projects/${projectId}`, { expectedProjectVersion: project.body.project.version, status: 'archived' });
    expect(archived.status).toBe(200);
    expect(archived.body.project).toMatchObject({ status: 'archived', version: project.body.project.version + 1 });
    const client = await alice.call('GET', `/projects/${projectId}/clients/${webClientId}`);
    const write = await alice.call('PATCH', `/projects/${projectId}/clients/${webClientId}`, { clientVersion: client.body.client.clientVersion, displayName: 'Renamed' });
    expect(write.status).toBe(409);
    expect(write.body.error).toBe('project_archived');
    await bob.call('POST', '/auth/logout');
  });

  it('reads the audit trail of the sequence, without any secret in it', async () => {
    const audit = await alice.call('GET', `/projects/${projectId}/audit-logs?limit=200`);
    expect(audit.status).toBe(200);
    const actions: string[] = audit.body.auditLogs.map((entry: { action: string }) => entry.action);
    expect(actions.length).toBeGreaterThanOrEqual(8);
    expect(audit.body.auditLogs.every((entry: { surface: string }) => entry.surface === 'agent')).toBe(true);
    const page = await alice.call('GET', `/projects/${projectId}/audit-logs?limit=2`);
    expect(page.body.auditLogs).toHaveLength(2);
    const next = await alice.call('GET', `/projects/${projectId}/audit-logs?limit=200&before=${encodeURIComponent(page.body.auditLogs[1].at)}`);
    expect(next.status).toBe(200);
    expect(next.body.auditLogs.every((entry: { at: string }) => entry.at < page.body.auditLogs[1].at)).toBe(true);
    const afterEntry = await alice.call('GET', `/projects/${projectId}/audit-logs?limit=200&before=${page.body.auditLogs[1].auditId}`);
    expect(afterEntry.status).toBe(200);
    expect(afterEntry.body.auditLogs.map((entry: { auditId: string }) => entry.auditId)).toEqual(
      audit.body.auditLogs.slice(2).map((entry: { auditId: string }) => entry.auditId),
    );
  });

  it('logs out; the token is dead at once', async () => {
    const token = alice.token;
    const logout = await alice.call('POST', '/auth/logout');
    expect(logout.status).toBe(204);
    expect(logout.text).toBe('');
    alice.token = token;
    const after = await alice.call('GET', '/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('login_required');
    expect(after.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('showed each plaintext secret in exactly one response, and matched the OpenAPI document every time', () => {
    for (const secret of [webSecret, rotatedSecret]) {
      expect(seen.filter((s) => s.response.text.includes(secret))).toHaveLength(1);
    }
    expect(checker).toBeDefined();
    expect(problems).toEqual([]);
    // The checker itself notices a wrong shape and an undocumented status.
    const wrong: ApiResponse = { status: 200, text: '{}', headers: {}, body: { project: { projectId: 1 } } };
    expect(checker!.check('GET', `/projects/${projectId}`, wrong).length).toBeGreaterThan(0);
    expect(checker!.check('GET', `/projects/${projectId}`, { ...wrong, status: 418 })).toEqual([expect.stringContaining('not documented')]);
  });
});

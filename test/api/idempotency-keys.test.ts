import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { snapshotDatabase } from './helpers/db-snapshot.ts';
import { createAgentClient, createConsoleClient, type ApiResponse, type RawRequest } from './helpers/api-clients.ts';
import { createOpenApiChecker, type OpenApiChecker } from './helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

const DAY_MS = 24 * 3600_000;
const webClient = { clientType: 'web', displayName: 'Portal', redirectUris: ['https://portal.example.com/cb'], scopeWhitelist: ['openid', 'profile'] };

describe.each(TEST_ENGINES)('Idempotency-Key on creating POSTs on %s', (engine) => {
  let ctx: TestContext;
  let people: Awaited<ReturnType<typeof createAccounts<'ida' | 'ivan' | 'root'>>>;
  const callers = {} as Record<'agent' | 'console', { request(request: RawRequest): Promise<ApiResponse>; call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResponse> }>;
  const checkers = {} as Record<'agent' | 'console', OpenApiChecker>;
  let other: ReturnType<typeof createAgentClient>;
  let admin: ReturnType<typeof createAgentClient>;
  let n = 0;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    people = await createAccounts(ctx.services, ['ida', 'ivan', 'root'], ['root']);
    const agent = createAgentClient(ctx.app);
    await agent.login('ida', PASSWORD);
    const consoleClient = createConsoleClient(ctx.app);
    await consoleClient.login('ida', PASSWORD);
    callers.agent = agent;
    callers.console = consoleClient;
    other = createAgentClient(ctx.app);
    await other.login('ivan', PASSWORD);
    admin = createAgentClient(ctx.app);
    await admin.login('root', PASSWORD);
    checkers.agent = createOpenApiChecker((await ctx.app.inject({ method: 'GET', url: '/api/agent/openapi.json' })).json());
    checkers.console = createOpenApiChecker((await ctx.app.inject({ method: 'GET', url: '/api/management/openapi.json' })).json());
  });
  afterAll(() => ctx.close());

  for (const surface of ['agent', 'console'] as const) {
    const post = (path: string, body: unknown, key?: string) => {
      const response = callers[surface].request({ method: 'POST', path, body, ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }) });
      return response.then((r) => {
        expect(checkers[surface].check('POST', path, r)).toEqual([]);
        return r;
      });
    };

    it(`${surface}: the same key and body answer the first response again, once created, marked replayed`, async () => {
      const key = `project-${surface}-${++n}`;
      const first = await post('/projects', { name: `Idempotent ${n}`, description: 'once' }, key);
      expect(first.status).toBe(201);
      expect(first.body.replayed).toBeUndefined();
      const before = await snapshotDatabase(ctx.db);
      // The same body with its fields in another order is the same request.
      const again = await post('/projects', { description: 'once', name: `Idempotent ${n}` }, key);
      expect(again.status).toBe(201);
      expect(again.body).toEqual({ ...first.body, replayed: true });
      expect(await snapshotDatabase(ctx.db)).toEqual(before);

      const reused = await post('/projects', { name: `Something else ${n}` }, key);
      expect(reused.status).toBe(409);
      expect(reused.body.error).toBe('idempotency_key_reused');
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
      // Another caller's key of the same name is theirs alone.
      expect((await other.request({ method: 'POST', path: '/projects', body: { name: 'Ivan' }, headers: { 'idempotency-key': key } })).status).toBe(201);
    });

    it(`${surface}: a replayed registration or rotation carries no one-time secret, and nothing is stored in clear`, async () => {
      const project = (await post('/projects', { name: `Secrets ${++n}` })).body.project;
      const path = `/projects/${project.projectId}/clients`;
      const key = `register-${surface}-${n}`;
      const first = await post(path, webClient, key);
      expect(first.status).toBe(201);
      const secret: string = first.body.clientSecret;
      const again = await post(path, webClient, key);
      expect(again.status).toBe(201);
      const { clientSecret: _value, secret: _secret, ...withoutSecret } = first.body;
      expect(again.body).toEqual({ ...withoutSecret, replayed: true });
      expect((await callers[surface].call('GET', path)).body.clients).toHaveLength(1);

      const rotatePath = `${path}/${first.body.client.clientId}/secrets/rotate`;
      const rotated = await post(rotatePath, { clientVersion: 1, gracePeriodSeconds: 0 }, `rotate-${surface}-${n}`);
      expect(rotated.status).toBe(201);
      const replayedRotation = await post(rotatePath, { clientVersion: 1, gracePeriodSeconds: 0 }, `rotate-${surface}-${n}`);
      expect(replayedRotation.body).toEqual({ client: rotated.body.client, replayed: true });

      const stored = JSON.stringify(await ctx.db.selectFrom('idempotency_keys').selectAll().execute());
      for (const value of [secret, rotated.body.clientSecret]) expect(stored).not.toContain(value);
    });

    it(`${surface}: members and users too; a failed first request leaves the key free`, async () => {
      const project = (await post('/projects', { name: `Members ${++n}` })).body.project;
      const membersPath = `/projects/${project.projectId}/members`;
      const key = `member-${surface}-${n}`;
      const stale = await post(membersPath, { subjectId: people.ivan.subjectId, role: 'viewer', expectedProjectVersion: 9 }, key);
      expect(stale.status).toBe(409);
      expect(stale.body.error).toBe('version_conflict');
      const added = await post(membersPath, { subjectId: people.ivan.subjectId, role: 'viewer', expectedProjectVersion: 1 }, key);
      expect(added.status).toBe(201);
      expect(await post(membersPath, { subjectId: people.ivan.subjectId, role: 'viewer', expectedProjectVersion: 1 }, key)).toMatchObject({ status: 201, body: { ...added.body, replayed: true } });
    });

    it(`${surface}: refuses a malformed key with 400 and writes nothing`, async () => {
      const before = await snapshotDatabase(ctx.db);
      for (const key of ['', 'has space', 'x'.repeat(256), 'caf\u00e9']) {
        const response = await callers[surface].request({ method: 'POST', path: '/projects', body: { name: 'Bad key' }, headers: { 'idempotency-key': key } });
        expect(response.status, JSON.stringify(key)).toBe(400);
        expect(response.body.error).toBe('invalid_request');
        expect(response.body.field_errors).toEqual({ 'Idempotency-Key': expect.any(String) });
      }
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
      expect((await post('/projects', { name: 'Longest key' }, 'k'.repeat(255))).status).toBe(201);
    });
  }

  it('creates again after 24 hours, and admins\' user creation replays without the password', async () => {
    const key = 'user-create-1';
    const body = { account: 'newbie', displayName: 'Newbie', password: 'a fine long passphrase' };
    const first = await admin.request({ method: 'POST', path: '/admin/users', body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    const again = await admin.request({ method: 'POST', path: '/admin/users', body, headers: { 'idempotency-key': key } });
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(JSON.stringify(await ctx.db.selectFrom('idempotency_keys').selectAll().execute())).not.toContain(body.password);

    const key2 = 'project-after-a-day';
    expect((await admin.request({ method: 'POST', path: '/projects', body: { name: 'Daily' }, headers: { 'idempotency-key': key2 } })).status).toBe(201);
    ctx.clock.advance(DAY_MS);
    await admin.login('root', PASSWORD); // the session ended with the day
    const later = await admin.request({ method: 'POST', path: '/projects', body: { name: 'Daily' }, headers: { 'idempotency-key': key2 } });
    expect(later.status).toBe(201);
    expect(later.body.replayed).toBeUndefined();
    expect((await admin.call('GET', '/projects')).body.projects.filter((p: { name: string }) => p.name === 'Daily')).toHaveLength(2);
  });

  it('keeps no copy of a password, a TOTP secret or recovery codes: no digest of a password, and secret answers are never kept', async () => {
    const key = 'user-password-digest';
    const body = (password: string) => ({ account: 'pwdigest', displayName: 'P', password });
    const first = await admin.request({ method: 'POST', path: '/admin/users', body: body('first password 1'), headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    // The password is not part of what makes two requests the same: a retry with another one gets the first answer.
    const again = await admin.request({ method: 'POST', path: '/admin/users', body: body('another password 2'), headers: { 'idempotency-key': key } });
    expect(again.status).toBe(201);
    expect(again.body.replayed).toBe(true);
    expect(JSON.stringify(await ctx.db.selectFrom('idempotency_keys').selectAll().execute())).not.toContain('first password 1');

    // Starting a TOTP factor and new recovery codes ignore the key: each call makes a new secret, none is stored.
    // (Adding a factor is the person's alone, in the console: DESIGN.md section 14.)
    const person = createConsoleClient(ctx.app);
    await person.login('ida', PASSWORD);
    const totpKey = 'totp-start';
    const started = await person.request({ method: 'POST', path: '/account/factors/totp', body: { name: 'Phone' }, headers: { 'idempotency-key': totpKey }, withCsrf: true } as RawRequest);
    const startedAgain = await person.request({ method: 'POST', path: '/account/factors/totp', body: { name: 'Phone' }, headers: { 'idempotency-key': totpKey }, withCsrf: true } as RawRequest);
    expect(started.status, started.text).toBe(201);
    expect(startedAgain.status).toBe(201);
    expect(startedAgain.body.replayed).toBeUndefined();
    expect(startedAgain.body.secret).not.toBe(started.body.secret);
    const kept = JSON.stringify(await ctx.db.selectFrom('idempotency_keys').selectAll().execute());
    expect(kept).not.toContain(started.body.secret as string);
    expect(kept).not.toContain(totpKey);
  });

  it('creates once when the same key and body arrive at the same time', async () => {
    const body = { name: 'Raced' };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => admin.request({ method: 'POST', path: '/projects', body, headers: { 'idempotency-key': 'raced-1' } })),
    );
    // Each one is the creation, its replay, or a refusal to answer while the first is still being answered.
    for (const response of responses) {
      expect([201, 409], response.text).toContain(response.status);
      if (response.status === 409) expect(response.body.error).toBe('idempotency_key_reused');
    }
    expect(responses.filter((r) => r.status === 201 && r.body.replayed === undefined)).toHaveLength(1);
    expect((await admin.call('GET', '/projects')).body.projects.filter((p: { name: string }) => p.name === 'Raced')).toHaveLength(1);
  });

  it('documents the header on every creating POST and only there', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/agent/openapi.json' })).json();
    const withHeader: string[] = [];
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>)) {
      for (const [method, entry] of Object.entries(methods)) {
        if (entry.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) withHeader.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(withHeader.sort()).toEqual(
      ['POST /admin/groups', 'POST /admin/identity-providers', 'POST /admin/users', 'POST /projects', 'POST /projects/{projectId}/clients', 'POST /projects/{projectId}/clients/{clientId}/secrets/rotate', 'POST /projects/{projectId}/members'].sort(),
    );
  });
});

describe.each(TEST_ENGINES)('the administrators\' audit trail on %s', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await createAccounts(ctx.services, ['amy', 'pat'], ['amy']);
  });
  afterAll(() => ctx.close());

  it('lists changes outside projects, newest first, paged by auditId; admins only, on both surfaces', async () => {
    const amy = createAgentClient(ctx.app);
    await amy.login('amy', PASSWORD);
    const pat = createConsoleClient(ctx.app);
    await pat.login('pat', PASSWORD);
    const created = await amy.call('POST', '/admin/users', { account: 'carl', displayName: 'Carl', password: 'another long passphrase' });
    const carl = created.body.user.subjectId as string;
    ctx.clock.advance(1000);
    await amy.call('PATCH', `/admin/users/${carl}`, { status: 'disabled' });
    ctx.clock.advance(1000);
    await amy.call('POST', `/admin/users/${carl}/password`, { password: 'a third long passphrase' });
    await amy.call('POST', '/projects', { name: 'Inside a project' });

    const refused = await pat.call('GET', '/admin/audit-logs');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');

    const page = await amy.call('GET', '/admin/audit-logs?limit=3');
    expect(page.status).toBe(200);
    expect(page.body.auditLogs.map((e: { action: string }) => e.action)).toEqual(['user.password_reset', 'user.update', 'user.create']);
    expect(page.body.auditLogs[1]).toMatchObject({ targetId: carl, actorAccount: 'amy', surface: 'agent', before: { status: 'active' }, after: { status: 'disabled' } });
    expect(JSON.stringify(page.body)).not.toContain('passphrase');

    const last = page.body.auditLogs[2].auditId;
    const next = await amy.call('GET', `/admin/audit-logs?limit=50&before=${last}`);
    expect(next.body.auditLogs.every((e: { action: string }) => e.action !== 'project.create')).toBe(true);
    expect(next.body.auditLogs.map((e: { auditId: string }) => e.auditId)).not.toContain(last);

    const consoleAmy = createConsoleClient(ctx.app);
    await consoleAmy.login('amy', PASSWORD);
    const viaConsole = await consoleAmy.call('GET', '/admin/audit-logs?limit=3');
    expect(viaConsole.status).toBe(200);
    expect(viaConsole.body.auditLogs[0].action).toBe('session.login');

    const project = (await amy.call('GET', '/projects')).body.projects[0];
    const projectEntry = (await amy.call('GET', `/projects/${project.projectId}/audit-logs`)).body.auditLogs[0].auditId;
    const foreign = await amy.call('GET', `/admin/audit-logs?before=${projectEntry}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.field_errors).toEqual({ before: expect.any(String) });
  });
});

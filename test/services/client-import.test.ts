import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { cliActor, systemActor } from '../../src/domain/actor.ts';
import { manualClock } from '../../src/domain/clock.ts';
import { sha256Hex } from '../../src/domain/digests.ts';
import { prepareInstance } from '../../src/startup/prepare-instance.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createTestDatabase, TEST_ENGINES } from '../helpers/engines.ts';
import { expectRefusedUnchanged, snapshotManagementTables } from './fixtures.ts';
import { createServices } from '../../src/services/index.ts';
import { importClientsDocument, importClientsFile } from '../../src/startup/first-deployment.ts';

const WEB_SECRET = 'first-deploy.secret_with~marks';

const validDocument = () => ({
  clients: [
    {
      clientId: 'portal',
      clientType: 'web',
      clientSecret: WEB_SECRET,
      displayName: 'Portal',
      description: 'Staff portal',
      redirectUris: ['https://portal.example.com/callback'],
      postLogoutRedirectUris: ['https://portal.example.com/'],
      scopeWhitelist: ['openid', 'profile', 'offline_access'],
      requirePkce: false,
    },
    {
      clientId: 'dashboard-spa',
      clientType: 'spa',
      displayName: 'Dashboard',
      redirectUris: ['http://localhost:5173/callback'],
      scopeWhitelist: ['openid', 'email'],
    },
  ],
});

describe.each(TEST_ENGINES)('first-deployment client import on %s', (engine) => {
  let ctx: TestContext;
  let dir: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    dir = mkdtempSync(join(tmpdir(), 'sesame-import-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await ctx.close();
  });

  it('refuses invalid documents naming the entry and field, and writes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ clients: [{ ...validDocument().clients[0], clientSecret: undefined }] }, 'clients[0].clientSecret'],
      [{ clients: [{ ...validDocument().clients[0], clientSecret: 'too-short' }] }, 'clients[0].clientSecret'],
      [{ clients: [{ ...validDocument().clients[0], clientSecret: 'sixteen chars \u00e9\u00e9\u00e9' }] }, 'clients[0].clientSecret'],
      [{ clients: [validDocument().clients[0], { ...validDocument().clients[1], clientSecret: 'spa-secret-is-not-allowed' }] }, 'clients[1].clientSecret'],
      [{ clients: [validDocument().clients[0], validDocument().clients[1], { ...validDocument().clients[1], redirectUris: ['http://evil.example/cb'] }] }, 'clients[2].redirectUris.0'],
      [{ clients: [{ ...validDocument().clients[1], scopeWhitelist: ['openid', 'offline_access'] }] }, 'clients[0].scopeWhitelist'],
      [{ clients: [validDocument().clients[1], { ...validDocument().clients[1] }] }, 'clients[1].clientId'],
      [{ clients: [{ ...validDocument().clients[1], clientId: 'has space' }] }, 'clients[0].clientId'],
      [{ clients: [{ ...validDocument().clients[1], clientType: 'desktop' }] }, 'clients[0].clientType'],
      [{ clients: [{ ...validDocument().clients[1], redirectUri: 'https://typo.example/cb' }] }, 'clients[0].redirectUri'],
      [{ clients: [{ ...validDocument().clients[1], requirePkce: 'yes' }] }, 'clients[0].requirePkce'],
      [{ client: [] }, 'client'],
      [[], 'document'],
    ];
    for (const [document, field] of cases) {
      await expectRefusedUnchanged(ctx, 'invalid_client_metadata', () => importClientsDocument(ctx.services, systemActor, document));
      const error = (await importClientsDocument(ctx.services, systemActor, document).catch((e: unknown) => e)) as { fieldErrors?: Record<string, string>; message: string };
      expect(Object.keys(error.fieldErrors ?? {}), JSON.stringify(document)).toContain(field);
      expect(error.message).toContain(field);
    }
    // The message names the entry's clientId too, and never echoes a secret.
    const error = (await importClientsDocument(ctx.services, systemActor, { clients: [{ ...validDocument().clients[0], redirectUris: ['ftp://x'] }] })
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('clients[0].redirectUris.0 (clientId "portal")');
    expect(error.message).not.toContain(WEB_SECRET);
  });

  it('refuses non-administrators', async () => {
    const user = await ctx.services.users.createUser(cliActor, { account: 'plain', displayName: 'Plain', password: 'a long enough password' });
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      importClientsDocument(ctx.services, { subjectId: user.subjectId, isAdmin: false, surface: 'agent', ip: null }, validDocument()),
    );
  });

  it('imports into a system project owned by the oldest admin, storing secret digests only, with audit entries', async () => {
    ctx.clock.advance(1000);
    const laterAdmin = await ctx.services.users.createUser(cliActor, { account: 'second-admin', displayName: 'Second', password: 'a long enough password', isAdmin: true });
    const { imported } = await importClientsDocument(ctx.services, systemActor, validDocument());
    expect(imported).toEqual(['portal', 'dashboard-spa']);

    const project = await ctx.db.selectFrom('projects').selectAll().where('name', '=', 'system').executeTakeFirstOrThrow();
    const bootstrap = (await ctx.services.users.findByAccount('admin'))!;
    const members = await ctx.db.selectFrom('project_members').selectAll().where('project_id', '=', project.project_id).execute();
    expect(members.map((m) => [m.subject_id, m.role])).toEqual([[bootstrap.subjectId, 'owner']]);
    expect(members.map((m) => m.subject_id)).not.toContain(laterAdmin.subjectId);

    const owner = { subjectId: bootstrap.subjectId, isAdmin: true, surface: 'console' as const, ip: null };
    const portal = await ctx.services.clients.getClient(owner, project.project_id, 'portal');
    expect(portal).toMatchObject({
      clientType: 'web',
      displayName: 'Portal',
      description: 'Staff portal',
      redirectUris: ['https://portal.example.com/callback'],
      postLogoutRedirectUris: ['https://portal.example.com/'],
      scopeWhitelist: ['openid', 'profile', 'offline_access'],
      requirePkce: false,
      revision: 1,
      clientVersion: 1,
      secrets: [{ status: 'active', expiresAt: null }],
    });
    const spa = await ctx.services.clients.getClient(owner, project.project_id, 'dashboard-spa');
    expect(spa).toMatchObject({ clientType: 'spa', requirePkce: true, secrets: [] });

    const secrets = await ctx.db.selectFrom('client_secrets').selectAll().execute();
    expect(secrets.map((s) => [s.client_id, s.digest, s.status])).toEqual([['portal', sha256Hex(WEB_SECRET), 'active']]);
    expect(await ctx.db.selectFrom('client_revisions').select(['client_id', 'revision']).orderBy('client_id').execute()).toEqual([
      { client_id: 'dashboard-spa', revision: 1 },
      { client_id: 'portal', revision: 1 },
    ]);

    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('project_id', '=', project.project_id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['client.import', 'client.import', 'project.create']);
    expect(audit.every((a) => a.surface === 'system')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(WEB_SECRET);
    expect(JSON.stringify(audit)).not.toContain(sha256Hex(WEB_SECRET));
  });

  it('does nothing once any client exists', async () => {
    const before = await snapshotManagementTables(ctx);
    const again = await importClientsDocument(ctx.services, systemActor, { clients: [{ ...validDocument().clients[1], clientId: 'new-one' }] });
    expect(again).toEqual({ imported: [] });
    expect(await snapshotManagementTables(ctx)).toBe(before);
  });

  it('reads a file, with clear errors for an unreadable file or invalid JSON', async () => {
    const missing = join(dir, 'missing.json');
    await expect(importClientsFile(ctx.services, systemActor, missing)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining(`Cannot read the clients file ${missing}`),
    });
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"clients": [');
    await expect(importClientsFile(ctx.services, systemActor, broken)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('is not valid JSON'),
    });
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ clients: [{ ...validDocument().clients[1], scopeWhitelist: ['email'] }] }));
    await expect(importClientsFile(ctx.services, systemActor, invalid)).rejects.toMatchObject({
      code: 'invalid_client_metadata',
      fieldErrors: { 'clients[0].scopeWhitelist': 'must contain openid' },
      message: expect.stringContaining(invalid),
    });
  });

  it('runs at start-up from OIDC_CLIENTS_CONFIG_PATH, and a bad file stops the start naming the entry and field', async () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(validDocument()));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ clients: [validDocument().clients[1], { ...validDocument().clients[0], redirectUris: ['http://portal.example.com/cb'] }] }));

    for (const [path, expectation] of [
      [bad, 'refused'],
      [good, 'imported'],
      [good, 'already'],
    ] as const) {
      // One database through all three starts: refused, then imported, then left alone.
      await startOnce(path, expectation);
    }

    async function startOnce(path: string, expectation: 'refused' | 'imported' | 'already') {
      startDb ??= await createTestDatabase(engine);
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: startDb.url, OIDC_CLIENTS_CONFIG_PATH: path });
      const opened = openDatabase(config.databaseUrl);
      try {
        await migrateToLatest(opened.db);
        const clock = manualClock();
        const services = createServices({ db: opened.db, engine: opened.engine, clock });
        const start = prepareInstance({ config, db: opened.db, clock, services });
        if (expectation === 'refused') {
          const error = (await start.catch((e: unknown) => e)) as ConfigError;
          expect(error).toBeInstanceOf(ConfigError);
          expect(error.message).toContain('OIDC_CLIENTS_CONFIG_PATH');
          expect(error.message).toContain('clients[1].redirectUris.0 (clientId "portal")');
          expect(error.message).not.toContain(WEB_SECRET);
          expect(await opened.db.selectFrom('clients').selectAll().execute()).toEqual([]);
        } else {
          const prepared = await start;
          expect(prepared.importedClients).toEqual(expectation === 'imported' ? ['portal', 'dashboard-spa'] : []);
          expect(await opened.db.selectFrom('clients').select('client_id').execute()).toHaveLength(2);
        }
      } finally {
        await opened.close();
      }
    }
  });

  let startDb: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  afterAll(async () => {
    await startDb?.drop();
  });
});

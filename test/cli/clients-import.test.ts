import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { createServices, type Services } from '../../src/services/index.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';
import { runSesame, type SesameRun } from './run-sesame.ts';

const WEB_SECRET = 'wiki-secret-with-._~-0123456789abcdefABCDEF';

const clientsFile = {
  clients: [
    {
      clientId: 'wiki',
      clientType: 'web',
      clientSecret: WEB_SECRET,
      displayName: 'Wiki',
      redirectUris: ['https://wiki.example.com/callback'],
      scopeWhitelist: ['openid', 'profile', 'offline_access'],
    },
    { clientId: 'dashboard', clientType: 'spa', displayName: 'Dashboard', redirectUris: ['http://localhost:5173/callback'], scopeWhitelist: ['openid', 'email'] },
  ],
};

const badFile = {
  clients: [
    clientsFile.clients[0],
    { clientId: 'broken', clientType: 'spa', displayName: 'Broken', redirectUris: ['http://evil.example.com/callback'], scopeWhitelist: ['openid'] },
  ],
};

describe.each(TEST_ENGINES)('sesame clients import on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let services: Services;
  let dir: string;
  const runs: SesameRun[] = [];
  const sesame = async (args: string[], input?: string) => {
    const run = await runSesame(args, { databaseUrl: database.url, ...(input === undefined ? {} : { input }) });
    runs.push(run);
    return run;
  };
  const clientCount = async () => (await opened.db.selectFrom('clients').select('client_id').execute()).length;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    services = createServices({ db: opened.db, engine: opened.engine, clock: systemClock });
    dir = mkdtempSync(join(tmpdir(), 'sesame-cli-clients-'));
    writeFileSync(join(dir, 'clients.json'), JSON.stringify(clientsFile));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(badFile));
    writeFileSync(join(dir, 'not-json.json'), '{"clients": [');
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('needs an administrator to own the system project', async () => {
    const run = await sesame(['clients', 'import', join(dir, 'clients.json')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('administrator');
    expect(await clientCount()).toBe(0);
  });

  it('refuses a bad file naming the entry and field, importing nothing', async () => {
    expect((await sesame(['user', 'add', '--account', 'root', '--display-name', 'Root', '--admin', '--password-stdin'], 'root password 1\n')).code).toBe(0);
    const bad = await sesame(['clients', 'import', join(dir, 'bad.json')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('clients[1].redirectUris');
    expect(bad.stderr).toContain('"broken"');
    const notJson = await sesame(['clients', 'import', join(dir, 'not-json.json')]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('not valid JSON');
    const missing = await sesame(['clients', 'import', join(dir, 'missing.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Cannot read the clients file');
    expect(await clientCount()).toBe(0);
  });

  it('imports every client into the system project once', async () => {
    const run = await sesame(['clients', 'import', join(dir, 'clients.json')]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ imported: ['wiki', 'dashboard'] });
    expect(run.stderr).toContain('imported 2 clients');
    const projects = await services.projects.listProjects(cliActor);
    expect(projects.map((p) => p.name)).toEqual(['system']);
    const clients = await services.clients.listClients(cliActor, projects[0]!.projectId);
    expect(clients.map((c) => [c.clientId, c.clientType]).sort()).toEqual([
      ['dashboard', 'spa'],
      ['wiki', 'web'],
    ]);
  });

  it('is a no-op once clients exist, and says so', async () => {
    const again = await sesame(['clients', 'import', join(dir, 'clients.json')]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ imported: [] });
    expect(again.stderr).toContain('nothing imported: clients already exist');
    expect(await clientCount()).toBe(2);
    expect((await services.projects.listProjects(cliActor)).length).toBe(1);
  });

  it('audits the import with surface cli and never shows the secret', async () => {
    const entries = await opened.db.selectFrom('audit_log').selectAll().where('action', 'in', ['project.create', 'client.import']).execute();
    expect(entries.map((e) => e.action).sort()).toEqual(['client.import', 'client.import', 'project.create']);
    expect(new Set(entries.map((e) => e.surface))).toEqual(new Set(['cli']));
    const everything = JSON.stringify(await opened.db.selectFrom('audit_log').selectAll().execute()) + runs.map((r) => r.stdout + r.stderr).join('\n');
    expect(everything).not.toContain(WEB_SECRET);
  });
});

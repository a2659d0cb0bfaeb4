import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { manualClock } from '../../src/domain/clock.ts';
import { createServices } from '../../src/services/index.ts';
import { prepareInstance } from '../../src/startup/prepare-instance.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

const CLIENT_SECRET = 'upstream client secret from the file';

const providers = () => [
  { type: 'oidc', name: 'campus', displayName: 'Campus login', provisioning: 'create', allowedEmailDomains: ['example.edu'], oidc: { issuer: 'https://login.example.edu', clientId: 'sesame', clientSecret: CLIENT_SECRET } },
  { type: 'ldap', name: 'directory', displayName: 'Directory', provisioning: 'existing_only', ldap: { url: 'ldaps://ldap.example.edu', bindDn: 'cn=sesame,dc=example,dc=edu', userSearchBase: 'ou=people,dc=example,dc=edu' } },
];

describe.each(TEST_ENGINES)('identity providers from the first-deployment file on %s', (engine) => {
  let dir: string;
  let database: TestDatabase;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sesame-idp-import-'));
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  async function start(document: unknown) {
    const path = join(dir, `file-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify(document));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, OIDC_CLIENTS_CONFIG_PATH: path });
    const opened = openDatabase(config.databaseUrl);
    await migrateToLatest(opened.db);
    const clock = manualClock();
    const services = createServices({ db: opened.db, engine: opened.engine, clock });
    try {
      return await prepareInstance({ config, db: opened.db, clock, services }).then(
        async () => ({ error: undefined, rows: await opened.db.selectFrom('identity_providers').selectAll().orderBy('position').execute() }),
        async (error: unknown) => ({ error, rows: await opened.db.selectFrom('identity_providers').selectAll().orderBy('position').execute() }),
      );
    } finally {
      await opened.close();
    }
  }

  it('stops the start on a bad entry, naming it and the field, and writes nothing', async () => {
    const bad = providers();
    bad[0]!.oidc = { ...bad[0]!.oidc!, issuer: 'http://login.example.edu' };
    const { error, rows } = await start({ clients: [], identityProviders: bad });
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('identityProviders[0].oidc.issuer');
    expect((error as Error).message).not.toContain(CLIENT_SECRET);
    expect(rows).toEqual([]);
  });

  it('imports the providers once, in the file\'s order, the secret sealed, and leaves them alone at later starts', async () => {
    const first = await start({ clients: [], identityProviders: providers() });
    expect(first.error).toBeUndefined();
    expect(first.rows.map((row) => [row.name, row.type, row.position])).toEqual([['campus', 'oidc', 1], ['directory', 'ldap', 2]]);
    expect(JSON.stringify(first.rows)).not.toContain(CLIENT_SECRET);
    expect(first.rows[0]!.secret_sealed).toMatch(/^v1\./);
    expect(first.rows[1]!.secret_sealed).toBeNull();

    const changed = providers().map((provider) => ({ ...provider, displayName: 'Changed in the file' }));
    const again = await start({ clients: [], identityProviders: changed });
    expect(again.error).toBeUndefined();
    expect(again.rows.map((row) => row.display_name)).toEqual(['Campus login', 'Directory']);
  });
});

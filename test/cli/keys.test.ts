import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { resolveInstanceSecrets } from '../../src/startup/instance-secrets.ts';
import { loadSigningJwks } from '../../src/oidc/signing-keys.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { createStore } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';
import { runSesame, type SesameRun } from './run-sesame.ts';

interface KeyRecord {
  kid: string;
  alg: string;
  status: string;
  createdAt: string;
  signsFrom: string;
  retiredAt: string | null;
  publishedUntil: string | null;
}

describe.each(TEST_ENGINES)('sesame keys on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  const runs: SesameRun[] = [];
  const sesame = async (args: string[], env?: Record<string, string>) => {
    const run = await runSesame(args, { databaseUrl: database.url, ...(env ? { env } : {}) });
    runs.push(run);
    return run;
  };
  const listKeys = async () => {
    const run = await sesame(['keys', 'list']);
    expect(run.code).toBe(0);
    return run.stdout.trim() === '' ? [] : run.stdout.trim().split('\n').map((line) => JSON.parse(line) as KeyRecord);
  };
  let firstKids: string[] = [];
  let secondKids: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  it('keys list on a fresh database shows no key and says where keys come from', async () => {
    const run = await sesame(['keys', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('sesame keys rotate');
  });

  it('keys rotate adds an RS256 and an ES256 key, showing only kid, alg, status and times', async () => {
    const run = await sesame(['keys', 'rotate']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { created: KeyRecord[]; retired: KeyRecord[] };
    expect(result.created.map((k) => [k.alg, k.status]).sort()).toEqual([
      ['ES256', 'active'],
      ['RS256', 'active'],
    ]);
    expect(result.retired).toEqual([]);
    for (const key of result.created) expect(Object.keys(key).sort()).toEqual(['alg', 'createdAt', 'kid', 'publishedUntil', 'retiredAt', 'signsFrom', 'status']);
    // No key signed before: nothing to publish ahead of, so the first keys sign at once.
    for (const key of result.created) expect(key.signsFrom).toBe(key.createdAt);
    expect(run.stderr).toContain('sign from now on');
    firstKids = result.created.map((k) => k.kid);
  });

  it('a second rotation makes new kids sign and keeps the old keys listed, retired and published', async () => {
    const run = await sesame(['keys', 'rotate']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { created: KeyRecord[]; retired: KeyRecord[] };
    secondKids = result.created.map((k) => k.kid);
    expect(secondKids).toHaveLength(2);
    for (const kid of secondKids) expect(firstKids).not.toContain(kid);
    expect(result.retired.map((k) => k.kid).sort()).toEqual([...firstKids].sort());
    // Publish first, sign later: the new keys sign after SIGNING_KEY_REFRESH_SECONDS (30) + 60 s, the old ones until then.
    for (const key of result.created) expect(Date.parse(key.signsFrom) - Date.parse(key.createdAt)).toBe(90_000);
    for (const key of result.retired) expect(key.retiredAt).toBe(result.created[0]!.signsFrom);
    expect(run.stderr).toContain(`start signing at ${result.created[0]!.signsFrom} (90 s after the rotation)`);

    const keys = await listKeys();
    expect(keys).toHaveLength(4);
    expect(keys.filter((k) => k.status === 'active').map((k) => k.kid).sort()).toEqual([...secondKids].sort());
    const retired = keys.filter((k) => k.status === 'retired');
    expect(retired.map((k) => k.kid).sort()).toEqual([...firstKids].sort());
    for (const key of retired) expect(Date.parse(key.publishedUntil!)).toBeGreaterThan(Date.now());
    const table = await sesame(['keys', 'list', '--format', 'table']);
    expect(table.stdout.split('\n')[0]).toMatch(/^kid\s+alg\s+status\s+createdAt/);
  });

  it('encrypts the new keys with the secret the server resolves, so the server can sign with them', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url });
    const { keyEncryptionSecret } = await resolveInstanceSecrets(config, createStore(opened.db, engine), systemClock);
    const jwks = await loadSigningJwks(createStore(opened.db, engine), systemClock, keyEncryptionSecret);
    expect(jwks.keys.map((k) => k.kid).sort()).toEqual([...firstKids, ...secondKids].sort());
  });

  it('refuses to rotate with a different OIDC_KEY_ENCRYPTION_SECRET, adding nothing', async () => {
    const run = await sesame(['keys', 'rotate'], { OIDC_KEY_ENCRYPTION_SECRET: 'a-different-secret-of-at-least-32-characters' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('OIDC_KEY_ENCRYPTION_SECRET differs');
    expect(await listKeys()).toHaveLength(4);
  });

  it('audits each rotation with surface cli, and no output holds key material', async () => {
    const entries = await opened.db.selectFrom('audit_log').selectAll().where('action', '=', 'signing_key.rotate').execute();
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((e) => e.surface))).toEqual(new Set(['cli']));
    const rows = await opened.db.selectFrom('signing_keys').selectAll().execute();
    const output = runs.map((r) => r.stdout + r.stderr).join('\n');
    for (const row of rows) {
      expect(output).not.toContain(row.private_jwk_encrypted);
      const publicJwk = JSON.parse(row.public_jwk) as { n?: string; x?: string };
      expect(output).not.toContain((publicJwk.n ?? publicJwk.x)!);
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { ensureBootstrapAdmin } from './bootstrap-admin.ts';
import { manualClock } from '../domain/clock.ts';
import { createServices } from '../services/index.ts';
import { openDatabase } from '../storage/database.ts';
import { migrateToLatest } from '../storage/migrate.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../../test/helpers/engines.ts';

/** A sign-in from inside the process, with no address: only the per-account limit counts it. */
const signInHere = { ip: null, surface: 'management' } as const;

const production = {
  NODE_ENV: 'production',
  OIDC_ISSUER: 'https://id.example.com',
  OIDC_KEY_ENCRYPTION_SECRET: 'k'.repeat(32),
  OIDC_COOKIE_KEYS: 'c'.repeat(32),
};

describe.each(TEST_ENGINES)('bootstrap administrator on %s', (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function freshServices(env: Record<string, string>) {
    const database: TestDatabase = await createTestDatabase(engine);
    const config = loadConfig({ ...env, DATABASE_URL: database.url });
    const opened = openDatabase(config.databaseUrl);
    cleanups.push(async () => {
      await opened.close();
      await database.drop();
    });
    await migrateToLatest(opened.db);
    return { config, services: createServices({ db: opened.db, engine: opened.engine, clock: manualClock() }) };
  }

  it('outside production creates admin with a generated password, once', async () => {
    const { config, services } = await freshServices({ NODE_ENV: 'test' });
    const created = await ensureBootstrapAdmin(config, services);
    expect(created?.admin).toMatchObject({ account: 'admin', isAdmin: true });
    expect(created?.generatedPassword).toMatch(/^[0-9A-Za-z]{20}$/);
    expect((await services.users.authenticate('admin', created?.generatedPassword ?? '', signInHere))?.isAdmin).toBe(true);
    expect(await ensureBootstrapAdmin(config, services)).toBeNull();
  });

  it('in production with no users and no configured password refuses to start, naming the variable', async () => {
    const { config, services } = await freshServices(production);
    const attempt = ensureBootstrapAdmin(config, services);
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(/OIDC_BOOTSTRAP_ADMIN_PASSWORD/);
    expect(await services.users.countUsers()).toBe(0);
  });

  it('refuses an account name the rules do not allow, naming the variable, and creates nobody', async () => {
    const { config, services } = await freshServices({ NODE_ENV: 'test', OIDC_BOOTSTRAP_ADMIN_ACCOUNT: 'not a name!' });
    const attempt = ensureBootstrapAdmin(config, services);
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(/OIDC_BOOTSTRAP_ADMIN_ACCOUNT: must be 1-128 characters/);
    expect(await services.users.countUsers()).toBe(0);
  });

  it('in production uses the configured account and password and reports no generated password', async () => {
    const { config, services } = await freshServices({ ...production, OIDC_BOOTSTRAP_ADMIN_ACCOUNT: 'root', OIDC_BOOTSTRAP_ADMIN_PASSWORD: 'a long unguessable passphrase' });
    const created = await ensureBootstrapAdmin(config, services);
    expect(created).toMatchObject({ admin: { account: 'root', isAdmin: true } });
    expect(created?.generatedPassword).toBeUndefined();
  });
});

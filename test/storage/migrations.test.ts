import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createTestDatabase, TEST_ENGINES } from '../helpers/engines.ts';

describe.each(TEST_ENGINES)('migrations on %s', (engine) => {
  it('creates every table once and is idempotent on a second run', async () => {
    const database = await createTestDatabase(engine);
    const { db, close } = openDatabase(database.url);
    try {
      const applied = await migrateToLatest(db);
      expect(applied).toContain('20261121000000-initial-schema');
      expect(await migrateToLatest(db)).toEqual([]);
      const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(
        expect.arrayContaining(['audit_log', 'client_revisions', 'client_secrets', 'clients', 'instance_settings', 'oidc_payloads', 'project_members', 'projects', 'sessions', 'signing_keys', 'users']),
      );
    } finally {
      await close();
      await database.drop();
    }
  });
});

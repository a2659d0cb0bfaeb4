import type { Kysely } from 'kysely';

// The instance's sign-in policy, one row, changed under optimistic locking (version).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('security_settings')
    .addColumn('settings_id', 'text', (c) => c.primaryKey())
    .addColumn('mfa_required', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('security_settings').values({ settings_id: 'instance', mfa_required: 'none', version: 1, updated_at: 0 }).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

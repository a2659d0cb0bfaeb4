import { sql, type Kysely } from 'kysely';

/**
 * A new signing key is published before it signs (publish first, sign later), so each key records
 * when it starts signing. Keys that exist already have signed since they were created.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('signing_keys').addColumn('signs_from', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.updateTable('signing_keys').set({ signs_from: sql.ref('created_at') }).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

import type { Kysely } from 'kysely';

// A person's chosen language for pages and mail (`en`, `zh-CN`); null follows the browser, then English.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('locale', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

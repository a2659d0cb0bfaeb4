import type { Kysely } from 'kysely';

// The assistant (native client) whose OAuth token made a change; null for password sessions, the console, the CLI.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('via_client_id', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

import type { Kysely } from 'kysely';

/**
 * When a grant's access token was last accepted at Sesame's own APIs (/mcp, /api/agent), in epoch ms:
 * the "last used" of an assistant's connection. Written on grant rows only, at most once a minute.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_payloads').addColumn('last_used_at', 'bigint').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

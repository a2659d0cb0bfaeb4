import type { Kysely } from 'kysely';

/**
 * Idempotency-Key of creating POSTs: per caller and key, a salted digest of the request (never the
 * body itself: a user's password travels in one) and, once it is answered, the response without its
 * one-time secrets. Rows live 24 hours.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_salt', 'text', (c) => c.notNull())
    .addColumn('request_digest', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['subject_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

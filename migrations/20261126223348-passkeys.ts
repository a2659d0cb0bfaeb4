import type { Kysely } from 'kysely';

/**
 * Passkeys are second factors like authenticator apps (one row in account_factors, type "passkey")
 * with their WebAuthn credential: id, public key, signature counter, transports. WebAuthn challenges
 * are kept as digests until used once or expired, so any instance can finish a ceremony another began.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_factors').addColumn('credential_id', 'text').execute();
  await db.schema.alterTable('account_factors').addColumn('public_key', 'text').execute();
  await db.schema.alterTable('account_factors').addColumn('sign_count', 'bigint').execute();
  await db.schema.alterTable('account_factors').addColumn('transports', 'text').execute();
  await db.schema.createIndex('account_factors_credential').on('account_factors').column('credential_id').unique().execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge_digest', 'text', (c) => c.primaryKey())
    .addColumn('binding', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expires').on('webauthn_challenges').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Sessions get an opaque id a person can name (list, end one) without the token or its digest.
 * Second factors: TOTP secrets (encrypted) with the last accepted time step, and recovery codes (digests).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('session_id', 'text').execute();
  const existing = await db.selectFrom('sessions').select('token_digest').execute();
  for (const row of existing) {
    await db.updateTable('sessions').set({ session_id: `ses_${randomBytes(12).toString('base64url')}` }).where('token_digest', '=', row.token_digest).execute();
  }
  await db.schema.createIndex('sessions_session_id').on('sessions').column('session_id').unique().execute();

  await db.schema
    .createTable('account_factors')
    .addColumn('factor_id', 'text', (c) => c.primaryKey())
    .addColumn('subject_id', 'text', (c) => c.notNull().references('users.subject_id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_factors_subject').on('account_factors').column('subject_id').execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('subject_id', 'text', (c) => c.notNull().references('users.subject_id'))
    .addColumn('code_digest', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['subject_id', 'code_digest'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

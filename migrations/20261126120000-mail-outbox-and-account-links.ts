import type { Kysely } from 'kysely';

// Outgoing mail waits in mail_outbox until a worker sends it; account_links are the single-use links
// (invitation, password reset, address verification) that mails carry. A link's token is minted when
// its mail is sent and only its SHA-256 digest is kept, so neither table ever holds a usable token.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_links')
    .addColumn('link_id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull().references('users.subject_id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.unique())
    .addColumn('password_state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_links_subject_purpose').on('account_links').columns(['subject_id', 'purpose']).execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('mail_id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text')
    .addColumn('subject_id', 'text')
    .addColumn('link_id', 'text')
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('claim_id', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('dropped_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('mail_outbox_pending').on('mail_outbox').columns(['sent_at', 'dropped_at', 'next_attempt_at']).execute();
  await db.schema.createIndex('mail_outbox_claim').on('mail_outbox').column('claim_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

import type { Kysely } from 'kysely';

// When a console session last proved the person (its sign-in, or POST /account/reauthenticate): the
// person-only operations need that proof to be recent. Null on sessions made before this column: they
// count from their sign-in (created_at).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('proven_at', 'bigint').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

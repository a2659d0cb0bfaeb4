import type { Kysely } from 'kysely';

// A management session opened for a person the second-factor policy requires to enrol and who has no factor:
// it may only enrol (DESIGN 13). Kept on the session, so a policy change binds each person from their next sign-in.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('enrolment_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

import type { Kysely } from 'kysely';

/**
 * An assistant known only by its client ID metadata document has no row in `clients`: its name is the
 * document's `client_name` as it was when the person consented, kept on its grant (`oidc_payloads.client_name`,
 * grants of such assistants only). Audit entries made through an assistant's token keep the assistant's
 * name as it was then (`audit_log.via_client_name`), for the console's audit pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_payloads').addColumn('client_name', 'text').execute();
  await db.schema.alterTable('audit_log').addColumn('via_client_name', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

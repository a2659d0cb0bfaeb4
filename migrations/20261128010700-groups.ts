import type { Kysely } from 'kysely';

/**
 * Groups (DESIGN.md section 16): named sets of people, released as the `groups` claim. A membership's
 * `source` says who manages it: `local` (the administrators' operations) or the identity provider that
 * maps it at each sign-in (`oidc:NAME`, `ldap:NAME`). A person is in a group at most once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('group_members')
    .addColumn('group_name', 'text', (c) => c.notNull().references('groups.name').onDelete('cascade'))
    .addColumn('subject_id', 'text', (c) => c.notNull().references('users.subject_id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_members_pk', ['group_name', 'subject_id'])
    .execute();
  // The claim and the admin User shape read one person's groups; a provider's sign-in reads its memberships.
  await db.schema.createIndex('group_members_subject').on('group_members').columns(['subject_id', 'source']).execute();
  await db.schema.createIndex('group_members_source').on('group_members').column('source').execute();

  // `{"<upstream group name or LDAP group DN>": "<group name>"}` as JSON text.
  await db.schema.alterTable('identity_providers').addColumn('group_mapping', 'text', (c) => c.notNull().defaultTo('{}')).execute();

  // The ID token also carries the profile, email and groups claims of the granted scopes (section 16).
  await db.schema.alterTable('clients').addColumn('claims_in_id_token', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('client_revisions').addColumn('claims_in_id_token', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

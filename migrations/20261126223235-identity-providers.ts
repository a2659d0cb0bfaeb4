import type { Kysely } from 'kysely';

/**
 * Upstream identity (DESIGN.md section 11): the OpenID Connect providers and LDAP directories people sign in
 * through, and the links from an upstream account to a Sesame person. A provider's client secret or bind
 * password is sealed with the key-encryption secret (src/security/sealed-text.ts); its other settings are
 * JSON text of the type's shape (src/domain/identity-providers.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('identity_providers')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('provisioning', 'text', (c) => c.notNull())
    .addColumn('link_by_verified_email', 'integer', (c) => c.notNull())
    .addColumn('allowed_email_domains', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('upstream_identities')
    .addColumn('identity_id', 'text', (c) => c.primaryKey())
    .addColumn('provider_name', 'text', (c) => c.notNull())
    // The upstream issuer for OpenID Connect, the directory URL for LDAP.
    .addColumn('issuer', 'text', (c) => c.notNull())
    // The upstream `sub`, or the directory entry's DN.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull().references('users.subject_id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .execute();
  await db.schema.createIndex('upstream_identities_upstream').on('upstream_identities').columns(['provider_name', 'issuer', 'subject']).unique().execute();
  await db.schema.createIndex('upstream_identities_subject').on('upstream_identities').column('subject_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

import type { Transaction } from 'kysely';
import type { ClientConfiguration } from '../domain/clients.ts';
import type { ClientRow, ClientSecretRow, Database } from '../storage/schema.ts';
import type { CheckedRegistration } from './client-input.ts';

export function configurationColumns(configuration: ClientConfiguration) {
  return {
    redirect_uris: JSON.stringify(configuration.redirectUris),
    post_logout_redirect_uris: JSON.stringify(configuration.postLogoutRedirectUris),
    scope_whitelist: JSON.stringify(configuration.scopeWhitelist),
    require_pkce: configuration.requirePkce ? 1 : 0,
  };
}

/** Keeps the history of OIDC configurations: one row per revision, registration being revision 1. */
export async function insertRevision(
  trx: Transaction<Database>,
  clientId: string,
  revision: number,
  configuration: ClientConfiguration,
  createdBy: string | null,
  now: number,
): Promise<void> {
  await trx
    .insertInto('client_revisions')
    .values({ client_id: clientId, revision, ...configurationColumns(configuration), created_by: createdBy, created_at: now })
    .execute();
}

/** Writes a new client at revision 1 and, for a web client, its first active secret (as a digest only). */
export async function insertClientRecords(
  trx: Transaction<Database>,
  input: {
    clientId: string;
    projectId: string;
    registration: CheckedRegistration;
    secret: { secretId: string; digest: string } | null;
    createdBy: string | null;
    now: number;
  },
): Promise<{ row: ClientRow; secretRows: ClientSecretRow[] }> {
  const { clientId, projectId, registration, now } = input;
  const row: ClientRow = {
    client_id: clientId,
    project_id: projectId,
    client_type: registration.clientType,
    display_name: registration.displayName,
    description: registration.description,
    ...configurationColumns(registration.configuration),
    status: 'active',
    client_version: 1,
    revision: 1,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('clients').values(row).execute();
  await insertRevision(trx, clientId, 1, registration.configuration, input.createdBy, now);
  const secretRows: ClientSecretRow[] = [];
  if (input.secret) {
    const secretRow: ClientSecretRow = {
      secret_id: input.secret.secretId,
      client_id: clientId,
      digest: input.secret.digest,
      status: 'active',
      created_at: now,
      expires_at: null,
      last_used_at: null,
    };
    await trx.insertInto('client_secrets').values(secretRow).execute();
    secretRows.push(secretRow);
  }
  return { row, secretRows };
}

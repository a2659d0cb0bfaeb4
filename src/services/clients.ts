import type { Transaction } from 'kysely';
import type { Actor } from '../domain/actor.ts';
import { sha256Hex } from '../domain/digests.ts';
import { newClientId, newSecretId, newSecretValue } from '../domain/ids.ts';
import { CLIENT_STATUSES } from '../domain/statuses.ts';
import { AppError } from '../errors.ts';
import type { ClientRow, Database } from '../storage/schema.ts';
import { changedFields } from './audit-diff.ts';
import { writeAudit } from './audit.ts';
import { checkConfigurationInput, checkRegistrationInput, clientTextProblems, type ClientConfigurationInput, type ClientRegistrationInput } from './client-input.ts';
import { auditedClientFields, loadClient, loadClientRow, loadSecretRows, toClient } from './client-mapping.ts';
import { configurationColumns, insertClientRecords, insertRevision } from './client-records.ts';
import type { ServiceDeps } from './deps.ts';
import { bumpClientVersion, checkExpectedVersion } from './optimistic-lock.ts';
import { requireActiveProject, requireCapability, resolveProjectAccess, type ProjectAccess } from './project-access.ts';
import type { Client, NewSecret } from './types.ts';

export interface ClientMetadataChanges {
  clientVersion: number;
  displayName?: string | undefined;
  description?: string | undefined;
  status?: 'active' | 'disabled' | undefined;
  /** Only to refuse a change of type clearly (409 invalid_client_type); the type is fixed at registration. */
  clientType?: string | undefined;
}

export interface ClientRevisionInput extends ClientConfigurationInput {
  clientVersion: number;
  /** Only to refuse a change of type clearly (409 invalid_client_type); the type is fixed at registration. */
  clientType?: string | undefined;
}

export function clientNotFound(projectId: string, clientId: string): AppError {
  return new AppError('not_found', `No client ${clientId} in project ${projectId}; list the project's clients to find its clientId.`);
}

function invalidClientMetadata(fieldErrors: Record<string, string>): AppError {
  return new AppError('invalid_client_metadata', 'Some client fields are invalid; see field_errors.', { fieldErrors });
}

function refuseTypeChange(row: ClientRow, requested: string | undefined): void {
  if (requested !== undefined && requested !== row.client_type) {
    throw new AppError('invalid_client_type', `A client's type cannot change (this one is ${row.client_type}); register a new ${requested} client instead.`);
  }
}

/**
 * The common opening of every client write, in the order that leaks nothing and writes nothing
 * on refusal: visibility (404), role (403), archived (409), the client itself (404), version (409).
 */
export async function openClientWrite(
  trx: Transaction<Database>,
  actor: Actor,
  projectId: string,
  clientId: string,
  clientVersion: unknown,
): Promise<{ access: ProjectAccess; row: ClientRow }> {
  const access = await resolveProjectAccess(trx, actor, projectId, { lock: 'share' });
  requireCapability(access, 'write_clients');
  requireActiveProject(access);
  const row = await loadClientRow(trx, projectId, clientId, { forUpdate: true });
  if (!row) throw clientNotFound(projectId, clientId);
  checkExpectedVersion('client', clientVersion, row.client_version);
  return { access, row };
}

export function createClientService({ db, clock }: ServiceDeps) {
  async function reload(trx: Transaction<Database>, projectId: string, clientId: string): Promise<Client> {
    const client = await loadClient(trx, projectId, clientId, clock.now());
    if (!client) throw clientNotFound(projectId, clientId);
    return client;
  }

  return {
    async listClients(actor: Actor, projectId: string): Promise<Client[]> {
      await resolveProjectAccess(db, actor, projectId);
      const rows = await db.selectFrom('clients').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('client_id').execute();
      const secrets = await loadSecretRows(db, rows.filter((r) => r.client_type === 'web').map((r) => r.client_id));
      const now = clock.now();
      return rows.map((row) => toClient(row, secrets.filter((s) => s.client_id === row.client_id), now));
    },

    async getClient(actor: Actor, projectId: string, clientId: string): Promise<Client> {
      await resolveProjectAccess(db, actor, projectId);
      const client = await loadClient(db, projectId, clientId, clock.now());
      if (!client) throw clientNotFound(projectId, clientId);
      return client;
    },

    /** A web client gets one active secret, returned here once; only its digest is stored. */
    async registerClient(actor: Actor, projectId: string, input: ClientRegistrationInput): Promise<{ client: Client; secret?: NewSecret }> {
      return db.transaction().execute(async (trx) => {
        const access = await resolveProjectAccess(trx, actor, projectId, { lock: 'share' });
        requireCapability(access, 'write_clients');
        requireActiveProject(access);
        const checked = checkRegistrationInput(input);
        if (!checked.ok) throw invalidClientMetadata(checked.fieldErrors);

        const now = clock.now();
        const clientId = newClientId();
        const secretValue = checked.value.clientType === 'web' ? newSecretValue() : null;
        const secretId = newSecretId();
        const { row, secretRows } = await insertClientRecords(trx, {
          clientId,
          projectId,
          registration: checked.value,
          secret: secretValue ? { secretId, digest: sha256Hex(secretValue) } : null,
          createdBy: actor.subjectId,
          now,
        });
        const client = toClient(row, secretRows, now);
        await writeAudit(trx, clock, actor, {
          action: 'client.create',
          targetType: 'client',
          targetId: clientId,
          projectId,
          after: { ...auditedClientFields(client), secretIds: client.secrets.map((s) => s.secretId) },
        });
        return secretValue ? { client, secret: { secretId, value: secretValue, createdAt: now } } : { client };
      });
    },

    async updateClientMetadata(actor: Actor, projectId: string, clientId: string, changes: ClientMetadataChanges): Promise<Client> {
      return db.transaction().execute(async (trx) => {
        const { row } = await openClientWrite(trx, actor, projectId, clientId, changes.clientVersion);
        refuseTypeChange(row, changes.clientType);
        const fieldErrors = clientTextProblems(changes, false);
        if (changes.status !== undefined && !(CLIENT_STATUSES as readonly unknown[]).includes(changes.status)) {
          fieldErrors.status = `must be one of ${CLIENT_STATUSES.join(', ')}`;
        }
        if (Object.keys(fieldErrors).length > 0) throw invalidClientMetadata(fieldErrors);

        const next = {
          display_name: changes.displayName !== undefined ? changes.displayName.trim() : row.display_name,
          description: changes.description !== undefined ? changes.description.trim() : row.description,
          status: changes.status ?? row.status,
        };
        const diff = changedFields(
          { displayName: row.display_name, description: row.description, status: row.status },
          { displayName: next.display_name, description: next.description, status: next.status },
        );
        if (!diff.changed) return reload(trx, projectId, clientId);

        await bumpClientVersion(trx, clientId, changes.clientVersion, { ...next, updated_at: clock.now() });
        const action = diff.after.status === 'disabled' ? 'client.disable' : diff.after.status === 'active' ? 'client.enable' : 'client.update';
        await writeAudit(trx, clock, actor, { action, targetType: 'client', targetId: clientId, projectId, before: diff.before, after: diff.after });
        return reload(trx, projectId, clientId);
      });
    },

    /** Replaces the OIDC configuration as a new revision; it is live at /auth and /token at once. */
    async reviseClientConfiguration(actor: Actor, projectId: string, clientId: string, input: ClientRevisionInput): Promise<Client> {
      return db.transaction().execute(async (trx) => {
        const { row } = await openClientWrite(trx, actor, projectId, clientId, input.clientVersion);
        refuseTypeChange(row, input.clientType);
        const checked = checkConfigurationInput(row.client_type, input);
        if (!checked.ok) throw invalidClientMetadata(checked.fieldErrors);

        const current = toClient(row, [], clock.now());
        const before = { redirectUris: current.redirectUris, postLogoutRedirectUris: current.postLogoutRedirectUris, scopeWhitelist: current.scopeWhitelist, requirePkce: current.requirePkce };
        const diff = changedFields(before, { ...checked.value });
        if (!diff.changed) return reload(trx, projectId, clientId);

        const now = clock.now();
        const revision = row.revision + 1;
        await bumpClientVersion(trx, clientId, input.clientVersion, { ...configurationColumns(checked.value), revision, updated_at: now });
        await insertRevision(trx, clientId, revision, checked.value, actor.subjectId, now);
        await writeAudit(trx, clock, actor, {
          action: 'client.revise',
          targetType: 'client',
          targetId: clientId,
          projectId,
          before: { revision: row.revision, ...diff.before },
          after: { revision, ...diff.after },
        });
        return reload(trx, projectId, clientId);
      });
    },
  };
}

export type ClientService = ReturnType<typeof createClientService>;

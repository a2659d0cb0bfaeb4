import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { clientTypeProblems, normalizeConfiguration } from '../../domain/client-rules.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { newClientId, newSecretId, newSecretValue } from '../../domain/ids.ts';
import { AppError } from '../../errors.ts';
import type { ClientRecord } from '../../storage/repositories/client-repository.ts';
import type { Repositories } from '../../storage/store.ts';
import { changedFields } from '../shared/audit-diff.ts';
import { writeAudit } from '../shared/audit.ts';
import { normalizeRegistration, type ClientConfigurationInput, type ClientRegistrationInput } from './client-input.ts';
import { auditedClientFields, loadClient, toClient } from './client-mapping.ts';
import { insertClientRecords } from './client-records.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { bumpClientVersion, checkExpectedVersion, clientVersionConflict } from '../shared/optimistic-lock.ts';
import { requireActiveProject, requireCapability, resolveProjectAccess, type ProjectAccess } from './project-access.ts';
import type { Client, NewSecret } from '../shared/types.ts';

export interface ClientMetadataChanges {
  clientVersion: number;
  displayName?: string | undefined;
  description?: string | undefined;
  status?: 'active' | 'disabled' | undefined;
  /** Only to refuse a change of type clearly (409 invalid_client_type); the type is fixed at registration. */
  clientType?: string | undefined;
}

export interface ClientVersionInput {
  clientVersion: number;
}

export interface ClientRevisionInput extends ClientConfigurationInput {
  clientVersion: number;
  /** Only to refuse a change of type clearly (409 invalid_client_type); the type is fixed at registration. */
  clientType?: string | undefined;
}

export function clientNotFound(projectId: string, clientId: string): AppError {
  return new AppError('not_found', said`No client ${clientId} in project ${projectId}; list the project's clients with ${see('listClients')} to find its \`clientId\`.`);
}

function invalidClientMetadata(fieldErrors: Record<string, string>): AppError {
  return new AppError('invalid_client_metadata', 'Some client fields are invalid; see field_errors.', { fieldErrors });
}

function refuseTypeChange(client: ClientRecord, requested: string | undefined): void {
  if (requested !== undefined && requested !== client.clientType) {
    throw new AppError('invalid_client_type', `A client's type cannot change (this one is ${client.clientType}); register a new ${requested} client instead.`);
  }
}

/**
 * The common opening of every client write, in the order that leaks nothing and writes nothing
 * on refusal: visibility (404), role (403), archived (409), the client itself (404), version (409).
 */
export async function openClientWrite(
  repos: Repositories,
  actor: Actor,
  projectId: string,
  clientId: string,
  clientVersion: unknown,
): Promise<{ access: ProjectAccess; client: ClientRecord }> {
  const access = await resolveProjectAccess(repos, actor, projectId, { lock: 'share' });
  requireCapability(access, 'write_clients');
  requireActiveProject(access);
  const client = await repos.clients.find(projectId, clientId, { forUpdate: true });
  if (!client) throw clientNotFound(projectId, clientId);
  checkExpectedVersion('client', clientVersion, client.clientVersion);
  return { access, client };
}

export function createClientService({ store, clock }: ServiceDeps) {
  async function reload(repos: Repositories, projectId: string, clientId: string): Promise<Client> {
    const client = await loadClient(repos, projectId, clientId, clock.now());
    if (!client) throw clientNotFound(projectId, clientId);
    return client;
  }

  return {
    async listClients(actor: Actor, projectId: string): Promise<Client[]> {
      await resolveProjectAccess(store.repos, actor, projectId);
      const clients = await store.repos.clients.listByProject(projectId);
      const secrets = await store.repos.clientSecrets.listForClients(clients.filter((c) => c.clientType === 'web').map((c) => c.clientId));
      const now = clock.now();
      return clients.map((client) => toClient(client, secrets.filter((s) => s.clientId === client.clientId), now));
    },

    async getClient(actor: Actor, projectId: string, clientId: string): Promise<Client> {
      await resolveProjectAccess(store.repos, actor, projectId);
      return reload(store.repos, projectId, clientId);
    },

    /** A web client gets one active secret, returned here once; only its digest is stored. */
    async registerClient(actor: Actor, projectId: string, input: ClientRegistrationInput): Promise<{ client: Client; secret?: NewSecret }> {
      return store.transaction(async (repos) => {
        const access = await resolveProjectAccess(repos, actor, projectId, { lock: 'share' });
        requireCapability(access, 'write_clients');
        requireActiveProject(access);
        const registration = normalizeRegistration(input);
        const now = clock.now();
        const clientId = newClientId();
        const secretValue = registration.clientType === 'web' ? newSecretValue() : null;
        const secretId = newSecretId();
        const client = await insertClientRecords(repos, {
          clientId,
          projectId,
          registration,
          secret: secretValue ? { secretId, digest: sha256Hex(secretValue) } : null,
          createdBy: actor.subjectId,
          now,
        });
        await writeAudit(repos, clock, actor, {
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
      return store.transaction(async (repos) => {
        const { client } = await openClientWrite(repos, actor, projectId, clientId, changes.clientVersion);
        refuseTypeChange(client, changes.clientType);
        const next = {
          displayName: changes.displayName !== undefined ? changes.displayName.trim() : client.displayName,
          description: changes.description !== undefined ? changes.description.trim() : client.description,
          status: changes.status ?? client.status,
        };
        const diff = changedFields({ displayName: client.displayName, description: client.description, status: client.status }, next);
        if (!diff.changed) return reload(repos, projectId, clientId);

        await bumpClientVersion(repos, clientId, changes.clientVersion, { ...next, updatedAt: clock.now() });
        const action = diff.after.status === 'disabled' ? 'client.disable' : diff.after.status === 'active' ? 'client.enable' : 'client.update';
        await writeAudit(repos, clock, actor, { action, targetType: 'client', targetId: clientId, projectId, before: diff.before, after: diff.after });
        return reload(repos, projectId, clientId);
      });
    },

    /** Replaces the OIDC configuration as a new revision; it is live at /auth and /token at once. */
    async reviseClientConfiguration(actor: Actor, projectId: string, clientId: string, input: ClientRevisionInput): Promise<Client> {
      return store.transaction(async (repos) => {
        const { client } = await openClientWrite(repos, actor, projectId, clientId, input.clientVersion);
        refuseTypeChange(client, input.clientType);
        // The contract judged the configuration; only the stored type's rules are left to check.
        const typeProblems = clientTypeProblems(client.clientType, input);
        if (Object.keys(typeProblems).length > 0) throw invalidClientMetadata(typeProblems);
        const configuration = normalizeConfiguration(client.clientType, input);

        const before = { redirectUris: client.redirectUris, postLogoutRedirectUris: client.postLogoutRedirectUris, scopeWhitelist: client.scopeWhitelist, requirePkce: client.requirePkce, claimsInIdToken: client.claimsInIdToken };
        const diff = changedFields(before, { ...configuration });
        if (!diff.changed) return reload(repos, projectId, clientId);

        const now = clock.now();
        const revision = client.revision + 1;
        const won = await repos.clients.reviseIfVersion(clientId, input.clientVersion, { revision, configuration, createdBy: actor.subjectId, updatedAt: now });
        if (!won) throw clientVersionConflict();
        await writeAudit(repos, clock, actor, {
          action: 'client.revise',
          targetType: 'client',
          targetId: clientId,
          projectId,
          before: { revision: client.revision, ...diff.before },
          after: { revision, ...diff.after },
        });
        return reload(repos, projectId, clientId);
      });
    },

    /** Deletes the client; its grants, codes, tokens and remembered consents go in the same transaction. */
    async deleteClient(actor: Actor, projectId: string, clientId: string, input: ClientVersionInput): Promise<void> {
      await store.transaction(async (repos) => {
        const { client } = await openClientWrite(repos, actor, projectId, clientId, input.clientVersion);
        const revokedGrants = await repos.oidcPayloads.revokeAllForClient(clientId);
        await repos.rememberedConsents.forgetClient(clientId);
        if (!(await repos.clients.delete(clientId, input.clientVersion))) throw clientVersionConflict();
        await writeAudit(repos, clock, actor, {
          action: 'client.delete',
          targetType: 'client',
          targetId: clientId,
          projectId,
          before: { ...auditedClientFields(client), clientVersion: client.clientVersion },
          after: { revokedGrants },
        });
      });
    },

    /** Ends every grant of the client with its codes and tokens; its secrets stay as they are. */
    async revokeClientTokens(actor: Actor, projectId: string, clientId: string, input: ClientVersionInput): Promise<{ client: Client; revokedGrants: number }> {
      return store.transaction(async (repos) => {
        await openClientWrite(repos, actor, projectId, clientId, input.clientVersion);
        const revokedGrants = await repos.oidcPayloads.revokeAllForClient(clientId);
        await bumpClientVersion(repos, clientId, input.clientVersion, { updatedAt: clock.now() });
        await writeAudit(repos, clock, actor, { action: 'client.revoke_tokens', targetType: 'client', targetId: clientId, projectId, after: { revokedGrants } });
        return { client: await reload(repos, projectId, clientId), revokedGrants };
      });
    },
  };
}

export type ClientService = ReturnType<typeof createClientService>;

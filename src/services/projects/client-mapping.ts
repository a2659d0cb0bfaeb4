import { secretIsUsable } from '../../domain/client-secrets.ts';
import type { ClientRecord } from '../../storage/repositories/client-repository.ts';
import type { ClientSecretRecord } from '../../storage/repositories/client-secret-repository.ts';
import type { Repositories } from '../../storage/store.ts';
import type { Client, SecretInfo } from '../shared/types.ts';

/**
 * A retiring secret whose grace period has ended is reported as `revoked` (its expiresAt says when it
 * stopped): the status always tells whether /token still accepts it. The row itself is rewritten to
 * `revoked` lazily, by the next rotation or revocation.
 */
export function toSecretInfo(secret: ClientSecretRecord, now: number): SecretInfo {
  const status = secret.status === 'retiring' && !secretIsUsable(secret, now) ? 'revoked' : secret.status;
  return { secretId: secret.secretId, status, createdAt: secret.createdAt, expiresAt: secret.expiresAt, lastUsedAt: secret.lastUsedAt };
}

const STATUS_ORDER: Record<SecretInfo['status'], number> = { active: 0, retiring: 1, revoked: 2 };

/**
 * The client as the APIs show it. `secrets` lists every secret the client ever had, revoked ones
 * included (their status says so): the active one first, then retiring, then revoked, each newest first.
 */
export function toClient(client: ClientRecord, secrets: readonly ClientSecretRecord[], now: number): Client {
  return {
    clientId: client.clientId,
    projectId: client.projectId,
    clientType: client.clientType,
    displayName: client.displayName,
    description: client.description,
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    scopeWhitelist: client.scopeWhitelist,
    requirePkce: client.requirePkce,
    claimsInIdToken: client.claimsInIdToken,
    status: client.status,
    revision: client.revision,
    secrets: secrets
      .map((secret) => toSecretInfo(secret, now))
      .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.createdAt - a.createdAt || (a.secretId < b.secretId ? 1 : -1)),
    clientVersion: client.clientVersion,
    createdAt: client.createdAt,
    updatedAt: client.updatedAt,
  };
}

export async function loadClient(repos: Repositories, projectId: string, clientId: string, now: number): Promise<Client | undefined> {
  const client = await repos.clients.find(projectId, clientId);
  return client && toClient(client, await repos.clientSecrets.listForClients([client.clientId]), now);
}

/** The audited view of a client: its metadata and OIDC configuration, never a secret. */
export function auditedClientFields(client: Omit<Client, 'secrets'>) {
  return {
    clientType: client.clientType,
    displayName: client.displayName,
    description: client.description,
    status: client.status,
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    scopeWhitelist: client.scopeWhitelist,
    requirePkce: client.requirePkce,
    claimsInIdToken: client.claimsInIdToken,
  };
}

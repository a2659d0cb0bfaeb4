import type { ClientSecretRecord } from '../../storage/repositories/client-secret-repository.ts';
import type { Repositories } from '../../storage/store.ts';
import type { CheckedRegistration } from './client-input.ts';
import { toClient } from './client-mapping.ts';
import type { Client } from '../shared/types.ts';

/** Writes a new client at revision 1 and, for a web client, its first active secret (as a digest only). */
export async function insertClientRecords(
  repos: Repositories,
  input: {
    clientId: string;
    projectId: string;
    registration: CheckedRegistration;
    secret: { secretId: string; digest: string } | null;
    createdBy: string | null;
    now: number;
  },
): Promise<Client> {
  const { clientId, projectId, registration, now } = input;
  const client = {
    clientId,
    projectId,
    clientType: registration.clientType,
    displayName: registration.displayName,
    description: registration.description,
    ...registration.configuration,
    status: 'active' as const,
    clientVersion: 1,
    revision: 1,
    createdAt: now,
    updatedAt: now,
  };
  await repos.clients.insert(client, input.createdBy);
  const secrets: ClientSecretRecord[] = [];
  if (input.secret) secrets.push(await repos.clientSecrets.insert({ ...input.secret, clientId, createdAt: now }));
  return toClient(client, secrets, now);
}

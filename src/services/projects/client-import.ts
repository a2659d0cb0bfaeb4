import type { Actor } from '../../domain/actor.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { newProjectId, newSecretId } from '../../domain/ids.ts';
import { AppError } from '../../errors.ts';
import type { Repositories } from '../../storage/store.ts';
import { writeAudit } from '../shared/audit.ts';
import { normalizeRegistration, type CheckedRegistration, type ClientRegistrationInput } from './client-input.ts';
import { auditedClientFields } from './client-mapping.ts';
import { insertClientRecords } from './client-records.ts';
import type { ServiceDeps } from '../shared/deps.ts';

export const SYSTEM_PROJECT_NAME = 'system';

/**
 * An entry of the first-deployment clients file, its shape already judged (src/startup/first-deployment.ts, by the
 * same registration contract as both APIs): a registration with its clientId and, for a web client, its secret.
 */
export interface ImportedClient extends ClientRegistrationInput {
  clientId: string;
  clientSecret?: string | undefined;
}

interface CheckedEntry {
  entry: ImportedClient;
  registration: CheckedRegistration;
}

export function createClientImportService({ store, clock }: ServiceDeps) {
  async function importInto(repos: Repositories, actor: Actor, entries: CheckedEntry[]): Promise<string[]> {
    if (await repos.clients.anyExists()) return [];
    const owner = (await repos.users.findOldestActiveAdmin())?.subjectId;
    if (!owner) throw new AppError('invalid_request', 'Importing clients needs an administrator to own the system project; create one first.');

    const now = clock.now();
    const project = {
      projectId: newProjectId(),
      name: SYSTEM_PROJECT_NAME,
      description: 'Clients imported from the first-deployment configuration.',
      status: 'active' as const,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    const { projectId } = project;
    await repos.projects.insert(project);
    await repos.members.add({ projectId, subjectId: owner, role: 'owner', createdAt: now });
    await writeAudit(repos, clock, actor, {
      action: 'project.create',
      targetType: 'project',
      targetId: projectId,
      projectId,
      after: { name: project.name, description: project.description, status: project.status, owner },
    });

    for (const { entry, registration } of entries) {
      const secret = entry.clientSecret === undefined ? null : { secretId: newSecretId(), digest: sha256Hex(entry.clientSecret) };
      const client = await insertClientRecords(repos, { clientId: entry.clientId, projectId, registration, secret, createdBy: actor.subjectId, now });
      await writeAudit(repos, clock, actor, {
        action: 'client.import',
        targetType: 'client',
        targetId: client.clientId,
        projectId,
        after: { ...auditedClientFields(client), secretIds: client.secrets.map((s) => s.secretId) },
      });
    }
    return entries.map(({ entry }) => entry.clientId);
  }

  return {
    /**
     * The first-deployment import: only while no client exists at all (otherwise nothing happens), into a
     * new `system` project owned by the oldest administrator, everything in one transaction.
     */
    async importClients(actor: Actor, clients: readonly ImportedClient[]): Promise<{ imported: string[] }> {
      if (!actor.isAdmin) throw new AppError('forbidden', 'Only administrators import clients.');
      const entries = clients.map((entry) => ({ entry, registration: normalizeRegistration(entry) }));
      if (entries.length === 0 || (await store.repos.clients.anyExists())) return { imported: [] };
      try {
        return { imported: await store.transaction((repos) => importInto(repos, actor, entries)) };
      } catch (error) {
        // Two instances starting together: the one that lost the race on client ids finds the import done.
        if (!(error instanceof AppError) && (await store.repos.clients.anyExists())) return { imported: [] };
        throw error;
      }
    },
  };
}

export type ClientImportService = ReturnType<typeof createClientImportService>;

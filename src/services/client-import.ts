import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { registerClientRequest } from '../api/contracts/clients.ts';
import { toFieldErrors } from '../api/contracts/field-errors.ts';
import type { Actor } from '../domain/actor.ts';
import { IMPORTED_SECRET_RULES } from '../domain/client-secrets.ts';
import { sha256Hex } from '../domain/digests.ts';
import { newProjectId, newSecretId } from '../domain/ids.ts';
import { AppError } from '../errors.ts';
import type { Repositories } from '../storage/store.ts';
import { writeAudit } from './audit.ts';
import { normalizeRegistration, type CheckedRegistration } from './client-input.ts';
import { auditedClientFields } from './client-mapping.ts';
import { insertClientRecords } from './client-records.ts';
import type { ServiceDeps } from './deps.ts';

export const SYSTEM_PROJECT_NAME = 'system';
const CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

/** An entry of the clients file: a registration, by the same contract as both APIs, with its clientId and, for a web client, its secret. */
const importedClientSchema = registerClientRequest
  .safeExtend({
    clientId: z.string().regex(CLIENT_ID_PATTERN, 'must be 1-128 characters: letters, digits and . _ ~ -, starting with a letter or digit'),
    clientSecret: z
      .string()
      .min(IMPORTED_SECRET_RULES.minLength, `must be at least ${IMPORTED_SECRET_RULES.minLength} characters`)
      .max(IMPORTED_SECRET_RULES.maxLength, `must be at most ${IMPORTED_SECRET_RULES.maxLength} characters`)
      .regex(IMPORTED_SECRET_RULES.pattern, 'must be printable ASCII')
      .optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry.clientType === 'web' && entry.clientSecret === undefined) ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: 'is required for a web client' });
    if (entry.clientType !== 'web' && entry.clientSecret !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['clientSecret'], message: `must not be set: a ${entry.clientType} client is public and has no secret` });
    }
  });

/**
 * The first-deployment file: `{"clients": [...], "identityProviders"?: [...]}`, unknown fields refused so typos do
 * not pass silently. The identity providers are imported by their own service (identity-providers.ts).
 */
const documentShape = z.strictObject(
  { clients: z.array(z.unknown(), { error: 'must be an array of client entries' }), identityProviders: z.array(z.unknown(), { error: 'must be an array of identity provider entries' }).optional() },
  { error: 'must be a JSON object with a "clients" array' },
);

type ImportedClient = z.infer<typeof importedClientSchema>;
interface CheckedEntry {
  entry: ImportedClient;
  registration: CheckedRegistration;
}

function invalidDocument(fieldErrors: Record<string, string>, document: unknown): AppError {
  const entries = Array.isArray((document as { clients?: unknown } | null)?.clients) ? (document as { clients: unknown[] }).clients : [];
  const lines = Object.entries(fieldErrors).map(([field, message]) => {
    const index = /^clients\[(\d+)\]/.exec(field)?.[1];
    const clientId = index === undefined ? undefined : (entries[Number(index)] as { clientId?: unknown } | undefined)?.clientId;
    return `${field}${typeof clientId === 'string' ? ` (clientId "${clientId}")` : ''}: ${message}`;
  });
  return new AppError('invalid_client_metadata', `The clients document is invalid: ${lines.join('; ')}.`, { fieldErrors });
}

/** The problems of one parse, keyed like `clients[2].redirectUris` under `prefix`, `document` for the whole. */
function addIssues(fieldErrors: Record<string, string>, issues: readonly z.core.$ZodIssue[], input: unknown, prefix: string): void {
  const found = toFieldErrors(issues, input);
  for (const [field, message] of Object.entries(found.fieldErrors)) fieldErrors[prefix ? `${prefix}.${field}` : field] ??= message;
  if (found.wholeInput.length > 0) fieldErrors[prefix || 'document'] ??= found.wholeInput.join('; ');
}

/** Every problem of the document at once; nothing is written unless there are none. */
export function checkClientsDocument(document: unknown): CheckedEntry[] {
  const shape = documentShape.safeParse(document);
  const fieldErrors: Record<string, string> = {};
  if (!shape.success) {
    addIssues(fieldErrors, shape.error.issues, document, '');
    throw invalidDocument(fieldErrors, document);
  }

  const seen = new Map<string, number>();
  const checked: CheckedEntry[] = [];
  shape.data.clients.forEach((raw, index) => {
    const prefix = `clients[${index}]`;
    const parsed = importedClientSchema.safeParse(raw);
    if (!parsed.success) {
      addIssues(fieldErrors, parsed.error.issues, raw, prefix);
      return;
    }
    const entry = parsed.data;
    const first = seen.get(entry.clientId);
    if (first !== undefined) fieldErrors[`${prefix}.clientId`] = `duplicates clients[${first}].clientId`;
    seen.set(entry.clientId, first ?? index);
    checked.push({ entry, registration: normalizeRegistration(entry) });
  });
  if (Object.keys(fieldErrors).length > 0) throw invalidDocument(fieldErrors, document);
  return checked;
}

/** The first-deployment file, parsed; a clear 400 when it cannot be read or is not JSON. */
export async function readDocumentFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AppError('invalid_request', `Cannot read the clients file ${path}: ${(error as Error).message}.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError('invalid_request', `The clients file ${path} is not valid JSON: ${(error as Error).message}.`);
  }
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

  const service = {
    /**
     * The first-deployment import: only while no client exists at all (otherwise nothing happens), into a
     * new `system` project owned by the oldest administrator, everything in one transaction.
     */
    async importClients(actor: Actor, document: unknown): Promise<{ imported: string[] }> {
      if (!actor.isAdmin) throw new AppError('forbidden', 'Only administrators import clients.');
      const entries = checkClientsDocument(document);
      if (entries.length === 0 || (await store.repos.clients.anyExists())) return { imported: [] };
      try {
        return { imported: await store.transaction((repos) => importInto(repos, actor, entries)) };
      } catch (error) {
        // Two instances starting together: the one that lost the race on client ids finds the import done.
        if (!(error instanceof AppError) && (await store.repos.clients.anyExists())) return { imported: [] };
        throw error;
      }
    },

    async importClientsFromFile(actor: Actor, path: string): Promise<{ imported: string[] }> {
      const document = await readDocumentFile(path);
      try {
        return await service.importClients(actor, document);
      } catch (error) {
        if (error instanceof AppError && error.code === 'invalid_client_metadata') {
          throw new AppError('invalid_client_metadata', `${path}: ${error.message}`, { fieldErrors: error.fieldErrors ?? {} });
        }
        throw error;
      }
    },
  };
  return service;
}

export type ClientImportService = ReturnType<typeof createClientImportService>;

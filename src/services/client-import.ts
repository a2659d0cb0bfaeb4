import { readFile } from 'node:fs/promises';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { Actor } from '../domain/actor.ts';
import { IMPORTED_SECRET_RULES } from '../domain/client-secrets.ts';
import { CLIENT_TYPES } from '../domain/clients.ts';
import { sha256Hex } from '../domain/digests.ts';
import { newProjectId, newSecretId } from '../domain/ids.ts';
import { AppError } from '../errors.ts';
import { zodFieldErrors } from '../zod-field-errors.ts';
import type { Database } from '../storage/schema.ts';
import { writeAudit } from './audit.ts';
import { checkRegistrationInput, type CheckedRegistration } from './client-input.ts';
import { auditedClientFields, toClient } from './client-mapping.ts';
import { insertClientRecords } from './client-records.ts';
import type { ServiceDeps } from './deps.ts';

export const SYSTEM_PROJECT_NAME = 'system';
const CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

const importedClientSchema = z.strictObject({
  clientId: z.string().regex(CLIENT_ID_PATTERN, 'must be 1-128 characters: letters, digits and . _ ~ -, starting with a letter or digit'),
  clientType: z.enum(CLIENT_TYPES, { error: `must be one of ${CLIENT_TYPES.join(', ')}` }),
  clientSecret: z
    .string()
    .min(IMPORTED_SECRET_RULES.minLength, `must be at least ${IMPORTED_SECRET_RULES.minLength} characters`)
    .max(IMPORTED_SECRET_RULES.maxLength, `must be at most ${IMPORTED_SECRET_RULES.maxLength} characters`)
    .regex(IMPORTED_SECRET_RULES.pattern, 'must be printable ASCII')
    .optional(),
  displayName: z.string(),
  description: z.string().optional(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()).optional(),
  scopeWhitelist: z.array(z.string()),
  requirePkce: z.boolean().optional(),
});

/** The first-deployment clients file: `{"clients": [...]}`, unknown fields refused so typos do not pass silently. */
export const clientsDocumentSchema = z.strictObject({ clients: z.array(importedClientSchema) });
const documentShape = z.strictObject({ clients: z.array(z.unknown(), { error: 'must be an array of client entries' }) }, { error: 'must be a JSON object with a "clients" array' });

type ImportedClient = z.infer<typeof importedClientSchema>;
interface CheckedEntry {
  entry: ImportedClient;
  registration: CheckedRegistration;
}

function fieldKey(path: readonly PropertyKey[]): string {
  return path.reduce<string>((key, part) => (typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${String(part)}` : String(part)), '');
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

function addZodIssues(fieldErrors: Record<string, string>, issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): void {
  const found = zodFieldErrors(issues, { key: fieldKey }, prefix);
  for (const [field, message] of Object.entries(found.fieldErrors)) fieldErrors[field] ??= message;
  for (const message of found.wholeInput) fieldErrors.document ??= message;
}

/** Every problem of the document at once, keyed like `clients[2].redirectUris`; nothing is written unless there are none. */
export function checkClientsDocument(document: unknown): CheckedEntry[] {
  const shape = documentShape.safeParse(document);
  const fieldErrors: Record<string, string> = {};
  if (!shape.success) {
    addZodIssues(fieldErrors, shape.error.issues, []);
    throw invalidDocument(fieldErrors, document);
  }

  const seen = new Map<string, number>();
  const checked: CheckedEntry[] = [];
  shape.data.clients.forEach((raw, index) => {
    const prefix = `clients[${index}]`;
    const parsed = importedClientSchema.safeParse(raw);
    if (!parsed.success) {
      addZodIssues(fieldErrors, parsed.error.issues, ['clients', index]);
      // Report the rule problems of the same entry too, so one pass over the file shows everything.
      if (typeof raw === 'object' && raw !== null) {
        const rules = checkRegistrationInput(raw as Record<string, unknown>);
        if (!rules.ok) for (const [field, message] of Object.entries(rules.fieldErrors)) fieldErrors[`${prefix}.${field}`] ??= message;
      }
      return;
    }
    const entry = parsed.data;
    const first = seen.get(entry.clientId);
    if (first !== undefined) fieldErrors[`${prefix}.clientId`] = `duplicates clients[${first}].clientId`;
    seen.set(entry.clientId, first ?? index);
    if (entry.clientType === 'web' && entry.clientSecret === undefined) fieldErrors[`${prefix}.clientSecret`] = 'is required for a web client';
    if (entry.clientType === 'spa' && entry.clientSecret !== undefined) fieldErrors[`${prefix}.clientSecret`] = 'must not be set: a spa client is public and has no secret';
    const registration = checkRegistrationInput(entry);
    if (!registration.ok) {
      for (const [field, message] of Object.entries(registration.fieldErrors)) fieldErrors[`${prefix}.${field}`] = message;
    } else {
      checked.push({ entry, registration: registration.value });
    }
  });
  if (Object.keys(fieldErrors).length > 0) throw invalidDocument(fieldErrors, document);
  return checked;
}

export function createClientImportService({ db, clock }: ServiceDeps) {
  async function anyClientExists(trx: Transaction<Database> | ServiceDeps['db']): Promise<boolean> {
    return (await trx.selectFrom('clients').select('client_id').limit(1).executeTakeFirst()) !== undefined;
  }

  async function importInto(trx: Transaction<Database>, actor: Actor, entries: CheckedEntry[]): Promise<string[]> {
    if (await anyClientExists(trx)) return [];
    const owner = await trx
      .selectFrom('users')
      .select('subject_id')
      .where('is_admin', '=', 1)
      .where('status', '=', 'active')
      .orderBy('created_at')
      .orderBy('subject_id')
      .limit(1)
      .executeTakeFirst();
    if (!owner) throw new AppError('invalid_request', 'Importing clients needs an administrator to own the system project; create one first.');

    const now = clock.now();
    const projectId = newProjectId();
    const project = { project_id: projectId, name: SYSTEM_PROJECT_NAME, description: 'Clients imported from the first-deployment configuration.', status: 'active' as const, version: 1, created_at: now, updated_at: now };
    await trx.insertInto('projects').values(project).execute();
    await trx.insertInto('project_members').values({ project_id: projectId, subject_id: owner.subject_id, role: 'owner', created_at: now }).execute();
    await writeAudit(trx, clock, actor, {
      action: 'project.create',
      targetType: 'project',
      targetId: projectId,
      projectId,
      after: { name: project.name, description: project.description, status: project.status, owner: owner.subject_id },
    });

    for (const { entry, registration } of entries) {
      const secret = entry.clientSecret === undefined ? null : { secretId: newSecretId(), digest: sha256Hex(entry.clientSecret) };
      const { row, secretRows } = await insertClientRecords(trx, { clientId: entry.clientId, projectId, registration, secret, createdBy: actor.subjectId, now });
      const client = toClient(row, secretRows, now);
      await writeAudit(trx, clock, actor, {
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
      if (entries.length === 0 || (await anyClientExists(db))) return { imported: [] };
      try {
        return { imported: await db.transaction().execute((trx) => importInto(trx, actor, entries)) };
      } catch (error) {
        // Two instances starting together: the one that lost the race on client ids finds the import done.
        if (!(error instanceof AppError) && (await anyClientExists(db))) return { imported: [] };
        throw error;
      }
    },

    async importClientsFromFile(actor: Actor, path: string): Promise<{ imported: string[] }> {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        throw new AppError('invalid_request', `Cannot read the clients file ${path}: ${(error as Error).message}.`);
      }
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch (error) {
        throw new AppError('invalid_request', `The clients file ${path} is not valid JSON: ${(error as Error).message}.`);
      }
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

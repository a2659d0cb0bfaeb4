import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { registerClientRequest } from '../api/contracts/clients.ts';
import { toFieldErrors } from '../api/contracts/field-errors.ts';
import { createIdentityProviderRequest } from '../api/contracts/identity-providers.ts';
import { ConfigError, type Config } from '../config.ts';
import { systemActor, type Actor } from '../domain/actor.ts';
import { IMPORTED_SECRET_RULES } from '../domain/client-secrets.ts';
import { directoryTransportProblem } from '../domain/identity-providers.ts';
import { AppError } from '../errors.ts';
import type { ImportedClient } from '../services/projects/client-import.ts';
import type { CreateIdentityProviderInput } from '../services/upstream/identity-provider-input.ts';
import type { Services } from '../services/index.ts';

// The first-deployment file (OIDC_CLIENTS_CONFIG_PATH, `sesame clients import`): its shape is judged here, by the
// same contracts as both APIs, and only what passes reaches the import use cases.

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

/** `{"clients": [...], "identityProviders"?: [...]}`, unknown fields refused so typos do not pass silently. */
const documentShape = z.strictObject(
  { clients: z.array(z.unknown(), { error: 'must be an array of client entries' }), identityProviders: z.array(z.unknown(), { error: 'must be an array of identity provider entries' }).optional() },
  { error: 'must be a JSON object with a "clients" array' },
);

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

/**
 * Each entry of a list checked by `schema`, every problem at once into `fieldErrors`, keyed like
 * `clients[2].redirectUris`; two entries with the same `key` (a clientId, a provider's name) are a problem too.
 */
function checkEntries<T extends Record<K, string>, K extends string>(
  entries: readonly unknown[],
  list: string,
  schema: z.ZodType<T>,
  key: K,
  fieldErrors: Record<string, string>,
  problemsOf: (entry: T) => Record<string, string> = () => ({}),
): T[] {
  const seen = new Map<string, number>();
  const checked: T[] = [];
  entries.forEach((raw, index) => {
    const prefix = `${list}[${index}]`;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      addIssues(fieldErrors, parsed.error.issues, raw, prefix);
      return;
    }
    for (const [field, problem] of Object.entries(problemsOf(parsed.data))) fieldErrors[`${prefix}.${field}`] = problem;
    const first = seen.get(parsed.data[key]);
    if (first !== undefined) fieldErrors[`${prefix}.${key}`] = `duplicates ${list}[${first}].${key}`;
    seen.set(parsed.data[key], first ?? index);
    checked.push(parsed.data);
  });
  return checked;
}

/** Every problem of the document's clients at once (400 invalid_client_metadata); nothing is imported unless there are none. */
export function checkClientsDocument(document: unknown): ImportedClient[] {
  const shape = documentShape.safeParse(document);
  const fieldErrors: Record<string, string> = {};
  if (!shape.success) {
    addIssues(fieldErrors, shape.error.issues, document, '');
    throw invalidDocument(fieldErrors, document);
  }
  const checked = checkEntries(shape.data.clients, 'clients', importedClientSchema, 'clientId', fieldErrors);
  if (Object.keys(fieldErrors).length > 0) throw invalidDocument(fieldErrors, document);
  return checked;
}

/** Every problem of the file's `identityProviders` entries at once, keyed like `identityProviders[0].oidc.issuer`. */
export function checkIdentityProviderEntries(entries: readonly unknown[]): CreateIdentityProviderInput[] {
  const fieldErrors: Record<string, string> = {};
  // A directory's transport rule spans two fields (url and startTls), so it is checked here as the API's does.
  const checked = checkEntries(entries, 'identityProviders', createIdentityProviderRequest, 'name', fieldErrors, ({ ldap }): Record<string, string> => {
    const transport = ldap ? directoryTransportProblem(ldap.url, ldap.startTls ?? false) : null;
    return transport ? { 'ldap.url': transport } : {};
  });
  if (Object.keys(fieldErrors).length > 0) {
    throw new AppError('invalid_client_metadata', `The identity providers are invalid: ${Object.entries(fieldErrors).map(([field, message]) => `${field}: ${message}`).join('; ')}.`, { fieldErrors });
  }
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

/** A refusal of the file, its description prefixed with the file's path. */
function naming(path: string, error: unknown): unknown {
  if (error instanceof AppError && error.code === 'invalid_client_metadata') return new AppError('invalid_client_metadata', `${path}: ${error.message}`, { fieldErrors: error.fieldErrors ?? {} });
  return error;
}

/** The clients of a first-deployment document: checked, then imported while no client exists (the use case decides). */
export async function importClientsDocument(services: Pick<Services, 'clients'>, actor: Actor, document: unknown): Promise<{ imported: string[] }> {
  return services.clients.importClients(actor, checkClientsDocument(document));
}

/** `sesame clients import FILE` and the start-up import: the file's clients. */
export async function importClientsFile(services: Pick<Services, 'clients'>, actor: Actor, path: string): Promise<{ imported: string[] }> {
  const document = await readDocumentFile(path);
  let clients: ImportedClient[];
  try {
    clients = checkClientsDocument(document);
  } catch (error) {
    throw naming(path, error);
  }
  return services.clients.importClients(actor, clients);
}

/** The file's `identityProviders`, imported while none exists. */
export async function importIdentityProvidersFile(services: Pick<Services, 'identityProviders'>, actor: Actor, path: string): Promise<{ imported: string[] }> {
  const document = (await readDocumentFile(path)) as { identityProviders?: unknown } | null;
  const entries = Array.isArray(document?.identityProviders) ? (document.identityProviders as unknown[]) : [];
  let inputs: CreateIdentityProviderInput[];
  try {
    inputs = checkIdentityProviderEntries(entries);
  } catch (error) {
    throw naming(path, error);
  }
  return services.identityProviders.importProviders(actor, inputs);
}

/**
 * The start-up step for OIDC_CLIENTS_CONFIG_PATH: imports the file while no client exists yet.
 * A bad file stops the start with one line per problem, naming the entry and the field.
 */
export async function importConfiguredClients(config: Pick<Config, 'clientsConfigPath'>, services: Pick<Services, 'clients' | 'identityProviders'>): Promise<string[]> {
  const path = config.clientsConfigPath;
  if (!path) return [];
  try {
    // The file's identity providers too (`identityProviders`), imported while none exists.
    await importIdentityProvidersFile(services, systemActor, path);
    return (await importClientsFile(services, systemActor, path)).imported;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const problems = error.fieldErrors
      ? Object.entries(error.fieldErrors).map(([field, message]) => `OIDC_CLIENTS_CONFIG_PATH (${path}): ${field}${entryLabel(error.message, field)}: ${message}`)
      : [`OIDC_CLIENTS_CONFIG_PATH: ${error.message}`];
    throw new ConfigError(problems);
  }
}

// The description already names each entry's clientId; reuse it rather than re-reading the file.
function entryLabel(description: string, field: string): string {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped} (\\(clientId "[^"]*"\\))`).exec(description);
  return match ? ` ${match[1]}` : '';
}

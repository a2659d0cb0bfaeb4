import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Actor } from '../domain/actor.ts';
import type { NameOperation } from '../domain/pointed-text.ts';
import { AppError } from '../errors.ts';
import { databaseFaultToAppError } from '../ops/database-faults.ts';
import type { Services } from '../services/index.ts';
import { queryValueForm } from './contracts/common.ts';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_ARGUMENT, readIdempotencyValue, runIdempotently } from './idempotency-key.ts';
import { isCreating, type AnyOperation, type SignedIn } from './operation.ts';
import { refuseOutsideTokenScope } from './operation-scope.ts';
import { refuseOffItsSurface } from './operation-surface.ts';
import { parseRequestPart, refuseUnexpectedBody, type Location } from './request-validation.ts';

/**
 * One operation pipeline for every surface that runs the operation list (the Agent API, the Management API,
 * the MCP tools). Its steps, in order:
 *
 * 1. authenticate        the surface's own (bearer token, console cookie + CSRF, MCP's OAuth token)
 * 2. check the surface   refuseOffItsSurface: an operation only a person's own session may call (`onlyFrom`)
 *    check the scope     refuseOutsideTokenScope: the one place a token's scopes are judged
 * 3. validate            the operation's zod contracts, every problem of the call in one answer
 * 4. idempotency         a creating operation with a key answers its first answer again
 * 5. call                the operation's one use case
 * 6. answer or refuse    the surface's own: a REST reply, or an MCP tool result; a refusal's text names
 *                        operations in the surface's words (a REST path, a tool name)
 */
export interface OperationSurface<Raw, Answer> {
  surface: Actor['surface'];
  /** How the surface's texts name an operation. */
  words: NameOperation;
  /** `text`: query values arrive as text (a URL's query string); `json`: as JSON values (tool arguments). */
  argumentForm: ArgumentForm;
  /** The caller, or a refusal (login_required, csrf_failed). */
  authenticate(operation: AnyOperation, raw: Raw): Promise<Caller>;
  /** The parts of the request as sent, before validation. */
  argumentsOf(operation: AnyOperation, raw: Raw): SentArguments;
  /** Request and reply the use case may need (cookies, addresses). */
  transport(raw: Raw): { request: FastifyRequest; reply: FastifyReply };
  answer(operation: AnyOperation, outcome: { status: number; body: unknown }, raw: Raw): Answer | Promise<Answer>;
  /** The surface's answer to a refusal, already in its words; it may rethrow for a shared error handler. */
  refuse(operation: AnyOperation, error: AppError, raw: Raw, cause: unknown): Answer | Promise<Answer>;
}

export type ArgumentForm = 'text' | 'json';

export interface Caller {
  actor: Actor;
  signedIn: SignedIn | null;
}

/** What a surface received, part by part, and problems it found splitting them (an unknown tool argument). */
export interface SentArguments {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  /** The raw Idempotency-Key (REST header, MCP argument); undefined when none was sent. */
  idempotencyKey?: unknown;
  problems?: Record<string, string>;
}

export interface ValidArguments {
  params: unknown;
  query: unknown;
  body: unknown;
  idempotencyKey: string | undefined;
}

export const REQUEST_PARTS = ['params', 'query', 'body'] as const;
export type RequestPart = (typeof REQUEST_PARTS)[number];

const PART_LOCATION: Record<RequestPart, Location> = { params: 'path', query: 'query', body: 'body' };

/**
 * The schema of one part of an operation's request in a surface's argument form. In the `json` form a query
 * field that is a number sent as text (`limit`) takes its value form: an integer, as a JSON argument is.
 */
export function partSchema(operation: AnyOperation, part: RequestPart, form: ArgumentForm): z.ZodType | undefined {
  const schema = operation[part] as z.ZodType | undefined;
  if (!schema || form === 'text' || part !== 'query' || !(schema instanceof z.ZodObject)) return schema;
  const valueForms = Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([name, field]) => {
    const valueForm = queryValueForm.get(field);
    return valueForm ? [[name, valueForm] as const] : [];
  });
  return valueForms.length === 0 ? schema : schema.extend(Object.fromEntries(valueForms));
}

/** Validates every part and the idempotency key, so one answer names every problem of the call. */
export function validateArguments(operation: AnyOperation, sent: SentArguments, form: ArgumentForm): ValidArguments {
  const refusals: AppError[] = [];
  const valid: ValidArguments = { params: undefined, query: undefined, body: undefined, idempotencyKey: undefined };
  const attempt = (step: () => void) => {
    try {
      step();
    } catch (error) {
      if (!(error instanceof AppError) || (error.code !== 'invalid_request' && error.code !== 'invalid_client_metadata')) throw error;
      refusals.push(error);
    }
  };
  if (sent.problems && Object.keys(sent.problems).length > 0) refusals.push(new AppError('invalid_request', `Some arguments of ${operation.operationId} are unknown; see field_errors.`, { fieldErrors: sent.problems }));
  for (const part of REQUEST_PARTS) {
    const schema = partSchema(operation, part, form);
    const location = form === 'json' ? 'arguments' : PART_LOCATION[part];
    // A tool call with no argument of a part still has that part, empty; an HTTP request's absent part stays absent.
    const input = form === 'json' ? (sent[part] ?? {}) : sent[part];
    if (schema) attempt(() => (valid[part] = parseRequestPart(schema, input, location)));
    else if (part === 'body') attempt(() => refuseUnexpectedBody(sent.body));
  }
  if (isCreating(operation)) attempt(() => (valid.idempotencyKey = readIdempotencyValue(sent.idempotencyKey, form === 'json' ? IDEMPOTENCY_ARGUMENT : IDEMPOTENCY_HEADER)));
  if (refusals.length === 1) throw refusals[0]!;
  if (refusals.length > 1) {
    const fieldErrors = Object.assign({}, ...refusals.map((refusal) => refusal.fieldErrors ?? {})) as Record<string, string>;
    const wholeInput = refusals.filter((refusal) => !refusal.fieldErrors).map((refusal) => refusal.message);
    throw new AppError('invalid_request', wholeInput.join(' ') || `Some ${form === 'json' ? 'arguments' : 'parts of the request'} of ${operation.operationId} are invalid; see field_errors, fix them all and send again.`, { fieldErrors });
  }
  return valid;
}

/** Runs one operation through the pipeline's steps for one surface. */
export async function runOperation<Raw, Answer>(surface: OperationSurface<Raw, Answer>, operation: AnyOperation, raw: Raw, services: Services): Promise<Answer> {
  try {
    const { actor, signedIn } = await surface.authenticate(operation, raw);
    refuseOffItsSurface(operation, actor);
    refuseOutsideTokenScope(operation, actor);
    const { params, query, body, idempotencyKey } = validateArguments(operation, surface.argumentsOf(operation, raw), surface.argumentForm);
    const { request, reply } = surface.transport(raw);
    const handle = () => operation.handle({ params, query, body, actor, signedIn, services, request, reply });
    const outcome =
      idempotencyKey === undefined
        ? { status: operation.response.status, body: await handle() }
        : await runIdempotently({ services, actor, key: idempotencyKey, operationId: operation.operationId, params, body, status: operation.response.status, log: request.log }, handle);
    return await surface.answer(operation, outcome, raw);
  } catch (error) {
    return surface.refuse(operation, asRefusal(error).inWords(surface.words), raw, error);
  }
}

/** Any failure as the refusal it answers with: a database that went away is 503, anything unforeseen 500. */
export function asRefusal(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return (error instanceof Error ? databaseFaultToAppError(error) : undefined) ?? new AppError('internal_error', 'Something went wrong on the server; try again, and report it if it persists.');
}

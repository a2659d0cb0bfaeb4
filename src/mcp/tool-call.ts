import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { IDEMPOTENCY_ARGUMENT, readIdempotencyArgument, runIdempotently } from '../api/idempotency-key.ts';
import { isCreating, type AnyOperation, type SignedIn } from '../api/operation.ts';
import { refuseOutsideTokenScope } from '../api/operation-scope.ts';
import { refuseOffItsSurface } from '../api/operation-surface.ts';
import { parseRequestPart } from '../api/request-validation.ts';
import type { Actor } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import { databaseFaultToAppError } from '../ops/database-faults.ts';
import type { Services } from '../services/index.ts';
import { argumentParts, type RequestPart } from './tool-schema.ts';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolCallContext {
  actor: Actor;
  signedIn: SignedIn;
  services: Services;
  request: FastifyRequest;
  reply: FastifyReply;
}

const LOCATIONS: Record<RequestPart, 'path' | 'query' | 'body'> = { params: 'path', query: 'query', body: 'body' };

/** Splits the flat arguments into path, query and body; names the operation does not know come back apart. */
function splitArguments(operation: AnyOperation, args: Record<string, unknown>) {
  const parts = argumentParts(operation);
  const split: Record<RequestPart, Record<string, unknown> | undefined> = { params: undefined, query: undefined, body: undefined };
  const unknown: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    const part = parts.get(name);
    if (!part) unknown[name] = 'is not a known argument; remove it';
    else (split[part] ??= {})[name] = value;
  }
  return { split, unknown };
}

/** Parses every part, so one answer names every problem of the call, as a REST answer does. */
function parseArguments(operation: AnyOperation, args: Record<string, unknown>): Record<RequestPart, unknown> {
  const { split, unknown } = splitArguments(operation, args);
  const fieldErrors: Record<string, string> = { ...unknown };
  const descriptions: string[] = [];
  const parsed: Record<RequestPart, unknown> = { params: undefined, query: undefined, body: undefined };
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = operation[part] as z.ZodType | undefined;
    if (!schema) continue;
    try {
      parsed[part] = parseRequestPart(schema, split[part] ?? {}, LOCATIONS[part]);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
      Object.assign(fieldErrors, error.fieldErrors ?? {});
      if (!error.fieldErrors) descriptions.push(error.message);
    }
  }
  if (Object.keys(fieldErrors).length > 0 || descriptions.length > 0) {
    throw new AppError('invalid_request', descriptions.join(' ') || `Some arguments of ${operation.operationId} are invalid; see field_errors, fix them and call again.`, { fieldErrors });
  }
  return parsed;
}

/** The arguments and the idempotency key, a problem of either named in one answer. */
function parseWithKey(operation: AnyOperation, args: Record<string, unknown>, keyArgument: unknown) {
  let keyProblem: AppError | undefined;
  let idempotencyKey: string | undefined;
  try {
    idempotencyKey = readIdempotencyArgument(keyArgument);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    keyProblem = error;
  }
  let parsed: Record<RequestPart, unknown>;
  try {
    parsed = parseArguments(operation, args);
  } catch (error) {
    if (keyProblem && error instanceof AppError && error.code === 'invalid_request') {
      throw new AppError('invalid_request', error.message, { fieldErrors: { ...error.fieldErrors, ...keyProblem.fieldErrors } });
    }
    throw error;
  }
  if (keyProblem) throw keyProblem;
  return { parsed, idempotencyKey };
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return (error instanceof Error ? databaseFaultToAppError(error) : undefined) ?? new AppError('internal_error', 'Something went wrong on the server; try again, and report it if it persists.');
}

/**
 * Runs one operation for a tool call: the same scope check, request contract and use case as the
 * REST surfaces. The REST response body is the structured result; a refusal is a tool error whose
 * structured content is the REST error body.
 */
export async function callOperationTool(operation: AnyOperation, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult> {
  try {
    refuseOffItsSurface(operation, context.actor);
    refuseOutsideTokenScope(operation, context.actor);
    const { [IDEMPOTENCY_ARGUMENT]: keyArgument, ...operationArgs } = args;
    const creating = isCreating(operation);
    const { parsed, idempotencyKey } = parseWithKey(operation, creating ? operationArgs : args, creating ? keyArgument : undefined);
    const handle = () =>
      operation.handle({
        params: parsed.params,
        query: parsed.query,
        body: parsed.body,
        actor: context.actor,
        signedIn: context.signedIn,
        services: context.services,
        request: context.request,
        reply: context.reply,
      });
    const result: unknown =
      idempotencyKey === undefined
        ? await handle()
        : (
            await runIdempotently(
              { services: context.services, actor: context.actor, key: idempotencyKey, operationId: operation.operationId, params: parsed.params, body: parsed.body, status: operation.response.status, log: context.request.log },
              handle,
            )
          ).body;
    const structured = (result ?? {}) as Record<string, unknown>;
    return { content: [{ type: 'text', text: summarise(operation, structured) }], structuredContent: structured };
  } catch (error) {
    const appError = toAppError(error);
    if (appError.code === 'internal_error') context.request.log.error({ err: error, tool: operation.operationId }, 'MCP tool failed');
    const body = appError.toBody() as unknown as Record<string, unknown>;
    return { content: [{ type: 'text', text: `${appError.code}: ${appError.message}` }], structuredContent: body, isError: true };
  }
}

/** A short text beside the structured result, for clients that show only text. */
function summarise(operation: AnyOperation, result: Record<string, unknown>): string {
  if (operation.response.status === 204) return `${operation.summary}: done.`;
  return `${operation.summary}: done. ${JSON.stringify(result)}`;
}

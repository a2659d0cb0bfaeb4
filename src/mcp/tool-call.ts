import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_ARGUMENT } from '../api/idempotency-key.ts';
import { isCreating, type AnyOperation, type SignedIn } from '../api/operation.ts';
import { InsufficientScopeError } from '../api/operation-scope.ts';
import { runOperation, type OperationSurface, type RequestPart, type SentArguments } from '../api/operation-pipeline.ts';
import type { Actor } from '../domain/actor.ts';
import type { NameOperation } from '../domain/pointed-text.ts';
import type { AppError } from '../errors.ts';
import type { Services } from '../services/index.ts';
import { argumentParts } from './tool-schema.ts';

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
  /** Told when a call needs more scope than the token has: the HTTP answer becomes the 403 challenge. */
  onInsufficientScope?(error: InsufficientScopeError): void;
}

/** JSON-RPC's "invalid request" code: the call cannot run with this token, whatever its arguments. */
const INSUFFICIENT_SCOPE_RPC_CODE = -32600;

interface ToolCall {
  args: Record<string, unknown>;
  context: ToolCallContext;
}

/** How MCP names an operation: by its tool name, which is its operationId. */
export const toolWords: NameOperation = (operationId) => `\`${operationId}\``;

/** Splits the flat arguments into path, query and body; names the operation does not know are problems of the call. */
function splitArguments(operation: AnyOperation, args: Record<string, unknown>): SentArguments {
  const { [IDEMPOTENCY_ARGUMENT]: idempotencyKey, ...rest } = args;
  const operationArgs = isCreating(operation) ? rest : args;
  const parts = argumentParts(operation);
  const split: Partial<Record<RequestPart, Record<string, unknown>>> = {};
  const problems: Record<string, string> = {};
  for (const [name, value] of Object.entries(operationArgs)) {
    const part = parts.get(name);
    if (!part) problems[name] = 'is not a known argument; remove it';
    else (split[part] ??= {})[name] = value;
  }
  return { ...split, idempotencyKey: isCreating(operation) ? idempotencyKey : undefined, problems };
}

/** A tool error whose structured content is the REST error body, its text in tool words. */
export function toolError(refusal: AppError): ToolResult {
  return { content: [{ type: 'text', text: `${refusal.code}: ${refusal.message}` }], structuredContent: refusal.toBody() as unknown as Record<string, unknown>, isError: true };
}

/**
 * The MCP surface of the operation pipeline (src/api/operation-pipeline.ts): the caller the /mcp route
 * authenticated, the tool's flat arguments as JSON values, the REST response body as the structured result,
 * and a refusal as a tool error in tool words.
 */
const MCP_SURFACE: OperationSurface<ToolCall, ToolResult> = {
  surface: 'mcp',
  words: toolWords,
  argumentForm: 'json',
  authenticate: async (_operation, { context }) => ({ actor: context.actor, signedIn: context.signedIn }),
  argumentsOf: (operation, { args }) => splitArguments(operation, args),
  transport: ({ context }) => ({ request: context.request, reply: context.reply }),
  answer(operation, { body }) {
    const structured = (body ?? {}) as Record<string, unknown>;
    return { content: [{ type: 'text', text: summarise(operation, structured) }], structuredContent: structured };
  },
  refuse(operation, refusal, { context }, cause) {
    // Outside the token's scopes: not a tool result but a JSON-RPC error in a 403 with the insufficient_scope
    // challenge (register-mcp.ts), so an MCP client re-authorizes with the challenged scope and retries.
    if (cause instanceof InsufficientScopeError) {
      context.onInsufficientScope?.(cause);
      throw new McpError(INSUFFICIENT_SCOPE_RPC_CODE, refusal.message, refusal.toBody());
    }
    if (refusal.code === 'internal_error') context.request.log.error({ err: cause, tool: operation.operationId }, 'MCP tool failed');
    return toolError(refusal);
  },
};

/** Runs one operation for a tool call, through the same pipeline as the REST surfaces. */
export function callOperationTool(operation: AnyOperation, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult> {
  return runOperation(MCP_SURFACE, operation, { args, context }, context.services);
}

/** A short text beside the structured result, for clients that show only text. */
function summarise(operation: AnyOperation, result: Record<string, unknown>): string {
  if (operation.response.status === 204) return `${operation.summary}: done.`;
  return `${operation.summary}: done. ${JSON.stringify(result)}`;
}

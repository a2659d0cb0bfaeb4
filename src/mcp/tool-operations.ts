import { agentOperations } from '../api/agent/register-agent-api.ts';
import type { AnyOperation } from '../api/operation.ts';
import type { Config } from '../config.ts';
import type { AssistantTokenLifetimes } from '../domain/limits.ts';

/** Agent API operations that make no sense as tools: the token comes from OAuth, and MCP describes itself. */
export const OPERATIONS_NOT_TOOLS = new Set(['login', 'logout', 'getInstructions', 'getOpenApiDocument']);

/**
 * The MCP tools' operations: the Agent API's own list, so a new operation is a new tool; except the
 * operations only a person's browser or password session may call (`onlyFrom`), which an assistant's
 * token never may: they are no tools at all, so an assistant neither sees nor calls them.
 */
export function toolOperations(config: Config, bodyLimitBytes: number, lifetimes: AssistantTokenLifetimes): AnyOperation[] {
  return agentOperations(config, bodyLimitBytes, lifetimes).filter((operation) => !OPERATIONS_NOT_TOOLS.has(operation.operationId) && operation.onlyFrom === undefined);
}

/** MCP tool annotations, from the operation's definition: reads are read-only; what the operation marks destructive is. */
export function toolAnnotations(operation: AnyOperation): { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean } {
  const readOnly = operation.method === 'GET';
  return { title: operation.summary, readOnlyHint: readOnly, destructiveHint: !readOnly && operation.destructive === true, idempotentHint: readOnly, openWorldHint: false };
}

import { agentOperations } from '../api/agent/register-agent-api.ts';
import type { AnyOperation } from '../api/operation.ts';
import type { Config } from '../config.ts';

/** Agent API operations that make no sense as tools: the token comes from OAuth, and MCP describes itself. */
export const OPERATIONS_NOT_TOOLS = new Set(['login', 'logout', 'getInstructions', 'getOpenApiDocument']);

/**
 * The MCP tools' operations: the Agent API's own list, so a new operation is a new tool; except the
 * operations only a person's browser or password session may call (`onlyFrom`), which an assistant's
 * token never may: they are no tools at all, so an assistant neither sees nor calls them.
 */
export function toolOperations(config: Config, bodyLimitBytes: number): AnyOperation[] {
  return agentOperations(config, bodyLimitBytes).filter((operation) => !OPERATIONS_NOT_TOOLS.has(operation.operationId) && operation.onlyFrom === undefined);
}

const DESTRUCTIVE = /^(remove|revoke|delete)|Revoke|Delete/;

/**
 * MCP tool annotations from the operation's method and effect: reads are read-only; removals,
 * revocations, deletions, and the changes that can archive a project or disable a client or a person
 * are destructive.
 */
export function toolAnnotations(operation: AnyOperation): { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean } {
  const readOnly = operation.method === 'GET';
  const destructive = !readOnly && (operation.method === 'DELETE' || DESTRUCTIVE.test(operation.operationId) || ['updateProject', 'updateClientMetadata', 'updateUser'].includes(operation.operationId));
  return { title: operation.summary, readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: readOnly, openWorldHint: false };
}

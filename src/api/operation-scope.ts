import type { Actor } from '../domain/actor.ts';
import { missingScope } from '../domain/assistant-scopes.ts';
import { AppError } from '../errors.ts';
import type { AnyOperation } from './operation.ts';

/**
 * Refuses an operation the caller's OAuth token was not granted the scope for, before anything is
 * read or written. Every surface that runs operations for a token (Agent API, MCP) calls this one
 * function; a password session or cookie carries no token scopes and is bounded by its role alone.
 * The role is checked afterwards by the service either way: a scope never widens it.
 */
export function refuseOutsideTokenScope(operation: Pick<AnyOperation, 'method' | 'path' | 'operationId'>, actor: Actor): void {
  if (actor.scopes === undefined) return;
  const missing = missingScope(actor.scopes, operation);
  if (missing === undefined) return;
  throw new AppError(
    'insufficient_scope',
    `${operation.operationId} needs the scope ${missing}, which this access token was not granted (it has: ${actor.scopes.join(' ') || 'none'}). Only the person can grant it, by connecting the assistant again.`,
  );
}

/** Whether a token with these scopes may call the operation (MCP lists only these tools). */
export const withinTokenScope = (operation: Pick<AnyOperation, 'method' | 'path'>, actor: Actor): boolean =>
  actor.scopes === undefined || missingScope(actor.scopes, operation) === undefined;

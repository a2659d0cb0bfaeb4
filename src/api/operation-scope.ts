import type { Actor } from '../domain/actor.ts';
import { DEFAULT_ASSISTANT_SCOPES, missingScope, steppedUpScopes } from '../domain/assistant-scopes.ts';
import { AppError } from '../errors.ts';
import type { AnyOperation } from './operation.ts';

/**
 * The refusal of an operation outside the token's scopes, carrying the scope to re-authorize with:
 * each surface answers it with its own 403 challenge (`insufficientScopeChallenge`).
 */
export class InsufficientScopeError extends AppError {
  /** The token's scopes plus those the operation needs, in one order (what the client asks for next). */
  readonly challengeScopes: readonly string[];

  constructor(description: string, challengeScopes: readonly string[]) {
    super('insufficient_scope', description);
    this.challengeScopes = challengeScopes;
  }
}

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
  const wanted = steppedUpScopes(actor.scopes, operation);
  throw new InsufficientScopeError(
    `${operation.operationId} needs the scope ${missing}, which this access token was not granted (it has: ${actor.scopes.join(' ') || 'none'}). ` +
      `Authorize again with the scope "${wanted.join(' ')}" that this answer's WWW-Authenticate challenge names (MCP and OAuth clients do so by themselves); the person grants it on Sesame's consent page.`,
    wanted,
  );
}

/** Whether a token with these scopes may call the operation (MCP lists only these tools). */
export const withinTokenScope = (operation: Pick<AnyOperation, 'method' | 'path'>, actor: Actor): boolean =>
  actor.scopes === undefined || missingScope(actor.scopes, operation) === undefined;

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

/** The 401 challenge of a resource for a request without a usable token: where to get one, and the default scope (RFC 6750 3, RFC 9728 5.1). */
export function loginChallenge(resourceMetadataUrl: string, options: { realm?: string; invalidToken?: string } = {}): string {
  const parts = [
    ...(options.realm ? [`realm=${quoted(options.realm)}`] : []),
    ...(options.invalidToken ? ['error="invalid_token"', `error_description=${quoted(options.invalidToken)}`] : []),
    `scope=${quoted(DEFAULT_ASSISTANT_SCOPES.join(' '))}`,
    `resource_metadata=${quoted(resourceMetadataUrl)}`,
  ];
  return `Bearer ${parts.join(', ')}`;
}

/** The 403 challenge for an operation outside the token's scopes (MCP authorization, scope challenge). */
export const insufficientScopeChallenge = (error: InsufficientScopeError, resourceMetadataUrl: string): string =>
  `Bearer error="insufficient_scope", scope=${quoted(error.challengeScopes.join(' '))}, resource_metadata=${quoted(resourceMetadataUrl)}`;

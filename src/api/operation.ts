import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../domain/actor.ts';
import type { PointedText } from '../domain/pointed-text.ts';
import type { ErrorCode } from '../errors.ts';
import type { Services } from '../services/index.ts';
import type { User } from '../services/people/users.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `session`: a signed-in user (bearer token on the Agent API; cookie, plus CSRF header on writes, on the console). */
export type Access = 'public' | 'session';

export interface SignedIn {
  user: User;
  /** The session's bearer token or cookie value, for logout and CSRF; never logged or returned. */
  token: string;
  /** Set when the bearer is an OAuth access token of an assistant (native client), not a password session. */
  assistant?: { clientId: string; clientName?: string | null; grantId: string; scopes: readonly string[] };
  /** A console session's last proof of the person (sign-in or re-authentication), epoch ms. */
  provenAt?: number;
  /** A session opened for a person who must enrol a second factor: it may only enrol (src/api/enrolment-session.ts). */
  enrolmentRequired?: boolean;
}

export interface OperationContext<P, Q, B, A extends Access> {
  params: P;
  query: Q;
  body: B;
  actor: Actor;
  signedIn: A extends 'session' ? SignedIn : null;
  services: Services;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * One management operation: the zod schemas validate the request and give the handler its
 * types, and the same schemas, texts and examples make the operation's OpenAPI entry.
 */
export interface Operation<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodVoid,
  A extends Access = Access,
> {
  operationId: string;
  method: HttpMethod;
  /** Relative to the API's prefix, in Fastify's notation (`/projects/:projectId`). */
  path: string;
  tag: string;
  summary: string;
  /** What it does; operations it names are pointers, so the REST documents show paths and MCP tool names. */
  description: string | PointedText;
  access: A;
  params?: P;
  query?: Q;
  body?: B;
  bodyExample?: z.input<B>;
  response: { status: SuccessStatus; description: string; schema?: R; example?: z.output<R> };
  /** The errors this operation itself can answer; those of authentication, parsing and the server are added by the document builder. */
  errors: readonly ErrorCode[];
  /**
   * The change cannot be undone or stops something working: removals, revocations, deletions, and changes that can
   * archive a project or disable a client or a person. MCP marks the tool `destructiveHint`; the guide says to confirm first.
   */
  destructive?: true;
  /** The answer is a secret shown this once (it is never stored, so an Idempotency-Key cannot replay it). */
  answerIsSecret?: boolean;
  /**
   * Who alone may call it (DESIGN.md section 14), checked by the pipeline before anything else and by the
   * use case: `console`, the person's own browser session (the person-only operations: answered
   * 403 browser_only on the Agent API, and not an MCP tool); `password-sessions`, not an assistant's
   * OAuth token (not an MCP tool; 403 browser_only to such a token on the Agent API).
   */
  onlyFrom?: 'console' | 'password-sessions';
  /** Body fields the MCP tool does not take (an assistant never handles them); sent anyway, they are refused as unknown arguments. */
  notToolArguments?: readonly string[];
  /** Replaces the surface's security requirement in the document (the console's login and context). */
  security?: Array<Record<string, string[]>>;
  handle(context: OperationContext<z.output<P>, z.output<Q>, z.output<B>, A>): Promise<z.output<R>>;
}

// Existential over the schema parameters: lists hold operations of every shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- zod's schema types are invariant here; `unknown` would reject every concrete operation
export type AnyOperation = Operation<any, any, any, any, Access>;

export function defineOperation<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodVoid,
  A extends Access = Access,
>(operation: Operation<P, Q, B, R, A>): Operation<P, Q, B, R, A> {
  return operation;
}

export const isStateChanging = (method: HttpMethod) => method !== 'GET';

/**
 * A creating POST (201) accepts an Idempotency-Key (src/api/idempotency-key.ts), unless its whole answer
 * is a secret shown once (a TOTP secret, recovery codes): that answer is never kept, so there is nothing to replay.
 */
export const isCreating = (operation: Pick<AnyOperation, 'method' | 'response' | 'answerIsSecret'>) =>
  operation.method === 'POST' && operation.response.status === 201 && operation.answerIsSecret !== true;

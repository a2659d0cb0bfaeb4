import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Actor } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import type { Services } from '../services/index.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The same key as an optional argument of the MCP tools of creating operations. */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

/** 1-255 visible ASCII characters (no spaces, no control characters). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const KEY_PROBLEM = 'must be 1-255 visible ASCII characters';

export const idempotencyKeyHeader = z
  .string()
  .regex(KEY_PATTERN)
  .meta({
    description:
      'Optional. 1-255 visible ASCII characters, e.g. a UUID you make for this change. Sent again with the same body within 24 hours, it answers the first response again ' +
      '(with `"replayed": true` and without any one-time secret) instead of creating a second time; with another body it is refused with 409 idempotency_key_reused.',
    examples: ['6b0f6c1e-3d3a-4f55-9a51-0c2f3e7b9d10'],
  });

/** A field the response of a creating POST carries when it is the first response given again. */
export const replayedField = z.literal(true).optional().meta({
  description: 'Present (true) only when this is the first response to the same Idempotency-Key and body, given again: nothing was created this time, and one-time secrets are left out.',
});

/**
 * The caller's key, undefined when none was sent; 400 when it is malformed. `name` is where it came from: the
 * REST Idempotency-Key header, or the MCP tools' `idempotencyKey` argument.
 */
export function readIdempotencyValue(value: unknown, name: typeof IDEMPOTENCY_HEADER | typeof IDEMPOTENCY_ARGUMENT): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && KEY_PATTERN.test(value)) return value;
  const what = name === IDEMPOTENCY_HEADER ? 'The Idempotency-Key header must be one value of' : `The ${IDEMPOTENCY_ARGUMENT} argument must be`;
  throw new AppError('invalid_request', `${what} 1-255 visible ASCII characters (letters, digits, punctuation; no spaces), e.g. a UUID.`, { fieldErrors: { [name]: KEY_PROBLEM } });
}

export interface IdempotentCall {
  services: Services;
  actor: Actor;
  key: string;
  operationId: string;
  params: unknown;
  body: unknown;
  status: number;
  log: FastifyBaseLogger;
}

/**
 * Runs a creation under an Idempotency-Key, for the REST surfaces and the MCP tools alike: the same key and
 * request give the first answer again (`replayed: true`, without one-time secrets); a refusal frees the key.
 */
export async function runIdempotently(call: IdempotentCall, create: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  const { services, actor, key, log } = call;
  const start = await services.idempotency.begin(actor, key, { operationId: call.operationId, params: call.params, body: call.body });
  if (start.outcome === 'replay') return { status: start.status, body: { ...start.body, replayed: true } };
  let result: unknown;
  try {
    result = await create();
  } catch (error) {
    // The refusal is the answer; a key left claimed (database gone) frees itself after a while.
    await services.idempotency.release(actor, key).catch((releaseError: unknown) => log.warn({ err: releaseError }, 'idempotency key not released'));
    throw error;
  }
  // The creation is done: its answer goes out even if it cannot be kept for a replay.
  await services.idempotency.complete(actor, key, call.status, result).catch((completeError: unknown) => log.warn({ err: completeError }, 'idempotent response not kept'));
  return { status: call.status, body: result };
}

import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** 1-255 visible ASCII characters (no spaces, no control characters). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

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

/** The caller's Idempotency-Key, undefined when none was sent; 400 when it is malformed. */
export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && KEY_PATTERN.test(value)) return value;
  throw new AppError('invalid_request', 'The Idempotency-Key header must be one value of 1-255 visible ASCII characters (letters, digits, punctuation; no spaces).', {
    fieldErrors: { [IDEMPOTENCY_HEADER]: 'must be 1-255 visible ASCII characters' },
  });
}

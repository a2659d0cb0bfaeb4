import { randomBytes } from 'node:crypto';
import type { Actor } from '../../domain/actor.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { SIGN_IN_FIRST } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';
import type { ServiceDeps } from './deps.ts';

/** How long a key answers with its first response. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;
/**
 * A first request still unanswered after this long has died with its process (requests are bounded
 * by far shorter database and request timeouts): its key is free again.
 */
const ABANDONED_AFTER_MS = 120_000;
/** Response fields that hold a one-time secret: never stored, so never replayed. */
const ONE_TIME_SECRET_FIELDS = ['clientSecret', 'secret'];

/** What identifies "the same request": the operation, its path parameters and its body. */
export interface IdempotentRequest {
  operationId: string;
  params: unknown;
  body: unknown;
}

export type IdempotencyStart = { outcome: 'first' } | { outcome: 'replay'; status: number; body: Record<string, unknown> };

/**
 * Passwords never enter the request digest: a salted SHA-256 of one would be a fast hash beside the
 * argon2id one. So a retry that differs only in a password is the same request (it gets the first answer).
 */
const PASSWORD_FIELDS = new Set(['password', 'newPassword', 'currentPassword']);

// Object keys sorted at every depth, so a body sent again with its fields in another order is the same request.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => v !== undefined && !PASSWORD_FIELDS.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const requestDigest = (salt: string, request: IdempotentRequest) => sha256Hex(`${salt}\n${canonicalJson(request)}`);

function withoutOneTimeSecrets(body: unknown): Record<string, unknown> {
  const copy = { ...(body as Record<string, unknown>) };
  for (const field of ONE_TIME_SECRET_FIELDS) delete copy[field];
  return copy;
}

const keyReused = () =>
  new AppError('idempotency_key_reused', 'You already used this Idempotency-Key in the last 24 hours for a different request; use a new key for a new request, or send the first request\'s exact body to get its answer again.');

/**
 * Idempotency-Key of creating POSTs: per caller and key, the first answer is kept for 24 hours and
 * given again (without its one-time secrets) to the same request; another request with the key is refused.
 */
export function createIdempotencyService({ store, clock }: ServiceDeps) {
  const callerOf = (actor: Actor) => {
    if (!actor.subjectId) throw new AppError('login_required', SIGN_IN_FIRST);
    return actor.subjectId;
  };

  return {
    /** Claims the key for this request, or says how the first request with it was answered. */
    async begin(actor: Actor, key: string, request: IdempotentRequest): Promise<IdempotencyStart> {
      const subjectId = callerOf(actor);
      const repo = store.repos.idempotencyKeys;
      const now = clock.now();
      await repo.pruneExpired(now);
      // Twice at most: a record found expired or abandoned is released, and the key claimed afresh.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const salt = randomBytes(16).toString('hex');
        if (await repo.reserve({ subjectId, key, requestSalt: salt, requestDigest: requestDigest(salt, request), createdAt: now, expiresAt: now + IDEMPOTENCY_WINDOW_MS })) {
          return { outcome: 'first' };
        }
        const held = await repo.find(subjectId, key);
        if (!held) continue;
        const abandoned = !held.response && held.createdAt + ABANDONED_AFTER_MS <= now;
        if (held.expiresAt <= now || abandoned) {
          await repo.release(subjectId, key);
          continue;
        }
        if (held.requestDigest !== requestDigest(held.requestSalt, request)) throw keyReused();
        if (!held.response) {
          throw new AppError('idempotency_key_reused', 'The first request with this Idempotency-Key is still being answered; wait a moment and send it again with the same key.');
        }
        return { outcome: 'replay', status: held.response.status, body: held.response.body };
      }
      throw keyReused();
    },

    /** Keeps the first answer, without its one-time secrets. */
    async complete(actor: Actor, key: string, status: number, body: unknown): Promise<void> {
      await store.repos.idempotencyKeys.complete(callerOf(actor), key, { status, body: withoutOneTimeSecrets(body) });
    },

    /** The first request failed: the key is free for a corrected one. */
    async release(actor: Actor, key: string): Promise<void> {
      await store.repos.idempotencyKeys.release(callerOf(actor), key);
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

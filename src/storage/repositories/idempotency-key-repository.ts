import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/** One caller's use of one Idempotency-Key. */
export interface IdempotencyRecord {
  subjectId: string;
  key: string;
  requestSalt: string;
  requestDigest: string;
  /** Undefined while the first request is still being answered. */
  response?: { status: number; body: Record<string, unknown> } | undefined;
  createdAt: number;
  expiresAt: number;
}

export interface IdempotencyKeyRepository {
  find(subjectId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Claims the key for a first request; false when the caller already holds it. */
  reserve(record: Omit<IdempotencyRecord, 'response'>): Promise<boolean>;
  /** Keeps the first response (already stripped of one-time secrets). */
  complete(subjectId: string, key: string, response: { status: number; body: Record<string, unknown> }): Promise<void>;
  /** Frees the key: its first request failed, or the record has expired. */
  release(subjectId: string, key: string): Promise<void>;
  /** Deletes every record expired at `now`; returns how many went. */
  pruneExpired(now: number): Promise<number>;
}

export const idempotencyKeyRepository: RepositoryFactory<IdempotencyKeyRepository> = () => (executor: Executor) => ({
  async find(subjectId, key) {
    if (!isStorableText(subjectId) || !isStorableText(key)) return undefined;
    const row = await executor.selectFrom('idempotency_keys').selectAll().where('subject_id', '=', subjectId).where('idempotency_key', '=', key).executeTakeFirst();
    if (!row) return undefined;
    return {
      subjectId: row.subject_id,
      key: row.idempotency_key,
      requestSalt: row.request_salt,
      requestDigest: row.request_digest,
      response: row.response_status === null || row.response_json === null ? undefined : { status: row.response_status, body: JSON.parse(row.response_json) as Record<string, unknown> },
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  },

  async reserve(record) {
    const result = await executor
      .insertInto('idempotency_keys')
      .values({
        subject_id: record.subjectId,
        idempotency_key: record.key,
        request_salt: record.requestSalt,
        request_digest: record.requestDigest,
        response_status: null,
        response_json: null,
        created_at: record.createdAt,
        expires_at: record.expiresAt,
      })
      .onConflict((oc) => oc.columns(['subject_id', 'idempotency_key']).doNothing())
      .returning('subject_id')
      .executeTakeFirst();
    return result !== undefined;
  },

  async complete(subjectId, key, response) {
    await executor
      .updateTable('idempotency_keys')
      .set({ response_status: response.status, response_json: JSON.stringify(response.body) })
      .where('subject_id', '=', subjectId)
      .where('idempotency_key', '=', key)
      .execute();
  },

  async release(subjectId, key) {
    await executor.deleteFrom('idempotency_keys').where('subject_id', '=', subjectId).where('idempotency_key', '=', key).execute();
  },

  async pruneExpired(now) {
    const result = await executor.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});

import type { Executor, RepositoryFactory } from '../store.ts';

export interface WebauthnChallengeRepository {
  /** Keeps a new challenge (its digest) for `binding` until `expiresAt`; drops the expired ones on the way. */
  insert(challengeDigest: string, binding: string, expiresAt: number, now: number): Promise<void>;
  /** Uses the challenge up: true once, only for its binding and before it expires. */
  consume(challengeDigest: string, binding: string, now: number): Promise<boolean>;
}

export const webauthnChallengeRepository: RepositoryFactory<WebauthnChallengeRepository> = () => (executor: Executor) => ({
  async insert(challengeDigest, binding, expiresAt, now) {
    await executor.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    await executor.insertInto('webauthn_challenges').values({ challenge_digest: challengeDigest, binding, expires_at: expiresAt }).execute();
  },

  async consume(challengeDigest, binding, now) {
    const deleted = await executor
      .deleteFrom('webauthn_challenges')
      .where('challenge_digest', '=', challengeDigest)
      .where('binding', '=', binding)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  },
});

import type { HeldConsoleSignIn, UpstreamSignInChecks } from '../../domain/identity-providers.ts';
import type { UpstreamSignInsTable } from '../schema.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/**
 * Upstream OpenID Connect sign-ins in flight: the ones sent to the provider (keyed by the digest of
 * their state), and the console sign-ins it confirmed (keyed by the browser's digest). Each is used
 * once, and only before it expires; any instance can finish what another started.
 */
export interface UpstreamSignInRepository {
  /** Keeps a sign-in sent upstream until `expiresAt`; drops the expired ones on the way. */
  insertPending(stateDigest: string, checks: UpstreamSignInChecks, expiresAt: number, now: number): Promise<void>;
  /** The unexpired sign-in sent upstream with this state, unused. */
  findPending(stateDigest: string, now: number): Promise<UpstreamSignInChecks | undefined>;
  /** Uses it up: true once, before it expires (of concurrent callers, one). */
  usePending(stateDigest: string, now: number): Promise<boolean>;
  /** Holds a confirmed console sign-in for its browser until `expiresAt` (replacing one held before); drops the expired ones on the way. */
  holdConsoleSignIn(browserDigest: string, held: HeldConsoleSignIn, expiresAt: number, now: number): Promise<void>;
  /** The unexpired console sign-in held for this browser, unused. */
  findConsoleSignIn(browserDigest: string, now: number): Promise<HeldConsoleSignIn | undefined>;
  /** Uses it up: true once, before it expires (of concurrent callers, one). */
  useConsoleSignIn(browserDigest: string, now: number): Promise<boolean>;
}

function toChecks(row: Omit<UpstreamSignInsTable, 'state_digest' | 'expires_at'>): UpstreamSignInChecks {
  const purpose = row.interaction_uid !== null ? { interaction: row.interaction_uid } : { console: { browser: row.console_browser ?? '', next: row.console_next ?? '/' } };
  return { provider: row.provider, nonce: row.nonce, codeVerifier: row.code_verifier, purpose };
}

/** The owner of `upstream_sign_ins` and `upstream_console_sign_ins`. */
export const upstreamSignInRepository: RepositoryFactory<UpstreamSignInRepository> = () => (executor: Executor) => ({
  async insertPending(stateDigest, { provider, nonce, codeVerifier, purpose }, expiresAt, now) {
    await executor.deleteFrom('upstream_sign_ins').where('expires_at', '<=', now).execute();
    const forConsole = 'console' in purpose ? purpose.console : undefined;
    await executor
      .insertInto('upstream_sign_ins')
      .values({
        state_digest: stateDigest,
        provider,
        nonce,
        code_verifier: codeVerifier,
        interaction_uid: 'interaction' in purpose ? purpose.interaction : null,
        console_browser: forConsole?.browser ?? null,
        console_next: forConsole?.next ?? null,
        expires_at: expiresAt,
      })
      .execute();
  },

  async findPending(stateDigest, now) {
    const row = await executor
      .selectFrom('upstream_sign_ins')
      .select(['provider', 'nonce', 'code_verifier', 'interaction_uid', 'console_browser', 'console_next'])
      .where('state_digest', '=', stateDigest)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && toChecks(row);
  },

  async usePending(stateDigest, now) {
    const deleted = await executor.deleteFrom('upstream_sign_ins').where('state_digest', '=', stateDigest).where('expires_at', '>', now).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  },

  async holdConsoleSignIn(browserDigest, { subjectId, provider }, expiresAt, now) {
    await executor.deleteFrom('upstream_console_sign_ins').where('expires_at', '<=', now).execute();
    const held = { subject_id: subjectId, provider, expires_at: expiresAt };
    await executor
      .insertInto('upstream_console_sign_ins')
      .values({ browser_digest: browserDigest, ...held })
      .onConflict((oc) => oc.column('browser_digest').doUpdateSet(held))
      .execute();
  },

  async findConsoleSignIn(browserDigest, now) {
    const row = await executor.selectFrom('upstream_console_sign_ins').select(['subject_id', 'provider']).where('browser_digest', '=', browserDigest).where('expires_at', '>', now).executeTakeFirst();
    return row && { subjectId: row.subject_id, provider: row.provider };
  },

  async useConsoleSignIn(browserDigest, now) {
    const deleted = await executor.deleteFrom('upstream_console_sign_ins').where('browser_digest', '=', browserDigest).where('expires_at', '>', now).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  },
});

import type { AccountLinkPurpose } from '../../domain/account-links.ts';
import type { AccountLinkRow } from '../schema.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/** A single-use link sent by mail. Its token exists only in the mail; `minted` says whether one was made. */
export interface AccountLink {
  linkId: string;
  purpose: AccountLinkPurpose;
  subjectId: string;
  /** The address the link was sent to (for verification: the address it confirms). */
  email: string;
  /** A digest of the person's password hash when the link was made. */
  passwordState: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
  minted: boolean;
}

export type NewAccountLink = Omit<AccountLink, 'usedAt' | 'revokedAt' | 'minted'>;

export interface AccountLinkRepository {
  insert(link: NewAccountLink): Promise<void>;
  findById(linkId: string): Promise<AccountLink | undefined>;
  findByTokenDigest(tokenDigest: string): Promise<AccountLink | undefined>;
  /** Gives a link that is neither used nor revoked its (new) token digest; false when it is dead. */
  setTokenDigest(linkId: string, tokenDigest: string): Promise<boolean>;
  /** Uses the link if nobody has; false for the loser of two uses racing. */
  markUsed(linkId: string, at: number): Promise<boolean>;
  /** Revokes the person's live links of this purpose (a newer one replaces them); how many. */
  revokeLive(subjectId: string, purpose: AccountLinkPurpose, at: number): Promise<number>;
  /** The person's newest link of this purpose that is neither used, revoked nor expired at `now`. */
  findNewestLive(subjectId: string, purpose: AccountLinkPurpose, now: number): Promise<AccountLink | undefined>;
  /** How many links of this purpose were made for the person since `since` (whatever became of them). */
  countMadeSince(subjectId: string, purpose: AccountLinkPurpose, since: number): Promise<number>;
}

function toAccountLink(row: AccountLinkRow): AccountLink {
  return {
    linkId: row.link_id,
    purpose: row.purpose,
    subjectId: row.subject_id,
    email: row.email,
    passwordState: row.password_state,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    revokedAt: row.revoked_at,
    minted: row.token_digest !== null,
  };
}

export const accountLinkRepository: RepositoryFactory<AccountLinkRepository> = () => (executor: Executor) => ({
  async insert(link) {
    await executor
      .insertInto('account_links')
      .values({
        link_id: link.linkId,
        purpose: link.purpose,
        subject_id: link.subjectId,
        email: link.email,
        token_digest: null,
        password_state: link.passwordState,
        created_at: link.createdAt,
        expires_at: link.expiresAt,
        used_at: null,
        revoked_at: null,
      })
      .execute();
  },

  async findById(linkId) {
    const row = await executor.selectFrom('account_links').selectAll().where('link_id', '=', linkId).executeTakeFirst();
    return row && toAccountLink(row);
  },

  async findByTokenDigest(tokenDigest) {
    const row = await executor.selectFrom('account_links').selectAll().where('token_digest', '=', tokenDigest).executeTakeFirst();
    return row && toAccountLink(row);
  },

  async setTokenDigest(linkId, tokenDigest) {
    const updated = await executor
      .updateTable('account_links')
      .set({ token_digest: tokenDigest })
      .where('link_id', '=', linkId)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },

  async markUsed(linkId, at) {
    const updated = await executor
      .updateTable('account_links')
      .set({ used_at: at })
      .where('link_id', '=', linkId)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },

  async revokeLive(subjectId, purpose, at) {
    const updated = await executor
      .updateTable('account_links')
      .set({ revoked_at: at })
      .where('subject_id', '=', subjectId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows);
  },

  async findNewestLive(subjectId, purpose, now) {
    const row = await executor
      .selectFrom('account_links')
      .selectAll()
      .where('subject_id', '=', subjectId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('link_id', 'desc')
      .executeTakeFirst();
    return row && toAccountLink(row);
  },

  async countMadeSince(subjectId, purpose, since) {
    const row = await executor
      .selectFrom('account_links')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('made'))
      .where('subject_id', '=', subjectId)
      .where('purpose', '=', purpose)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.made);
  },
});

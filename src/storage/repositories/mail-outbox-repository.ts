import type { MailKind } from '../../domain/account-links.ts';
import type { MailOutboxRow } from '../schema.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/** One mail waiting in the outbox (or sent). Its params are what the template needs; never a token. */
export interface OutboxMail {
  mailId: string;
  kind: MailKind;
  /** Null for a reset request the worker has not matched to a person yet. */
  recipient: string | null;
  subjectId: string | null;
  linkId: string | null;
  params: Record<string, unknown>;
  createdAt: number;
  /** Claims so far, this one included. */
  attempts: number;
  sentAt: number | null;
  droppedAt: number | null;
  lastError: string | null;
}

export type NewOutboxMail = Pick<OutboxMail, 'mailId' | 'kind' | 'recipient' | 'subjectId' | 'linkId' | 'params' | 'createdAt'>;

export interface ClaimOptions {
  claimId: string;
  /** The worker's time: claims that lapsed before it are free again. */
  now: number;
  /** Mail whose next try is after this waits (a restart passes the far future: pending mail goes at once). */
  dueBy: number;
  leaseUntil: number;
  limit: number;
}

export interface MailOutboxRepository {
  enqueue(mail: NewOutboxMail): Promise<void>;
  /**
   * Claims up to `limit` unsent mails whose claim is free: one conditional UPDATE (rows locked on
   * PostgreSQL are skipped), so two workers never hold one mail. Returns the mails claimed.
   */
  claimDue(options: ClaimOptions): Promise<OutboxMail[]>;
  /** Extends this claim before a send; false when the claim was lost (lapsed and taken by another worker). */
  renewClaim(mailId: string, claimId: string, leaseUntil: number): Promise<boolean>;
  /** Fills in the person a reset request turned out to be for. */
  resolve(mailId: string, claimId: string, to: { recipient: string; subjectId: string; linkId: string }): Promise<boolean>;
  markSent(mailId: string, claimId: string, at: number): Promise<boolean>;
  /** Gives the mail up without sending it (its link died, or nobody matched a reset request). */
  markDropped(mailId: string, claimId: string, at: number, reason: string): Promise<boolean>;
  /** Frees the claim and schedules the next try. */
  markFailed(mailId: string, claimId: string, nextAttemptAt: number, error: string): Promise<boolean>;
  /** Frees every mail this claim still holds unsent (a worker stopping). */
  releaseClaim(claimId: string): Promise<number>;
  findById(mailId: string): Promise<OutboxMail | undefined>;
  /** Mail neither sent nor dropped. */
  countPending(): Promise<number>;
}

function toOutboxMail(row: MailOutboxRow): OutboxMail {
  return {
    mailId: row.mail_id,
    kind: row.kind,
    recipient: row.recipient,
    subjectId: row.subject_id,
    linkId: row.link_id,
    params: JSON.parse(row.params) as Record<string, unknown>,
    createdAt: row.created_at,
    attempts: row.attempts,
    sentAt: row.sent_at,
    droppedAt: row.dropped_at,
    lastError: row.last_error,
  };
}

// Error texts come from SMTP servers; a few hundred characters say what went wrong.
const ERROR_TEXT_LIMIT = 500;

export const mailOutboxRepository: RepositoryFactory<MailOutboxRepository> = (_db, engine) => (executor: Executor) => {
  const ownClaim = (mailId: string, claimId: string) =>
    executor.updateTable('mail_outbox').where('mail_id', '=', mailId).where('claim_id', '=', claimId).where('sent_at', 'is', null).where('dropped_at', 'is', null);

  return {
    async enqueue(mail) {
      await executor
        .insertInto('mail_outbox')
        .values({
          mail_id: mail.mailId,
          kind: mail.kind,
          recipient: mail.recipient,
          subject_id: mail.subjectId,
          link_id: mail.linkId,
          params: JSON.stringify(mail.params),
          created_at: mail.createdAt,
          attempts: 0,
          next_attempt_at: 0,
          claim_id: null,
          claimed_until: null,
          sent_at: null,
          dropped_at: null,
          last_error: null,
        })
        .execute();
    },

    async claimDue({ claimId, now, dueBy, leaseUntil, limit }) {
      let candidates = executor
        .selectFrom('mail_outbox')
        .select('mail_id')
        .where('sent_at', 'is', null)
        .where('dropped_at', 'is', null)
        .where('next_attempt_at', '<=', dueBy)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .orderBy('next_attempt_at')
        .orderBy('created_at')
        .limit(limit);
      if (engine === 'postgres') candidates = candidates.forUpdate().skipLocked();
      // The conditions again on the row being updated: PostgreSQL re-checks them on the newest version of a row another worker just claimed.
      await executor
        .updateTable('mail_outbox')
        .set((eb) => ({ claim_id: claimId, claimed_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('mail_id', 'in', candidates)
        .where('sent_at', 'is', null)
        .where('dropped_at', 'is', null)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .execute();
      const rows = await executor.selectFrom('mail_outbox').selectAll().where('claim_id', '=', claimId).where('sent_at', 'is', null).where('dropped_at', 'is', null).orderBy('created_at').execute();
      return rows.map(toOutboxMail);
    },

    async renewClaim(mailId, claimId, leaseUntil) {
      const updated = await ownClaim(mailId, claimId).set({ claimed_until: leaseUntil }).executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    async resolve(mailId, claimId, to) {
      const updated = await ownClaim(mailId, claimId).set({ recipient: to.recipient, subject_id: to.subjectId, link_id: to.linkId }).executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    async markSent(mailId, claimId, at) {
      const updated = await ownClaim(mailId, claimId).set({ sent_at: at, claim_id: null, claimed_until: null, last_error: null }).executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    async markDropped(mailId, claimId, at, reason) {
      const updated = await ownClaim(mailId, claimId).set({ dropped_at: at, claim_id: null, claimed_until: null, last_error: reason.slice(0, ERROR_TEXT_LIMIT) }).executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    async markFailed(mailId, claimId, nextAttemptAt, error) {
      const updated = await ownClaim(mailId, claimId)
        .set({ next_attempt_at: nextAttemptAt, claim_id: null, claimed_until: null, last_error: error.slice(0, ERROR_TEXT_LIMIT) })
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    async releaseClaim(claimId) {
      const updated = await executor
        .updateTable('mail_outbox')
        .set({ claim_id: null, claimed_until: null })
        .where('claim_id', '=', claimId)
        .where('sent_at', 'is', null)
        .where('dropped_at', 'is', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows);
    },

    async findById(mailId) {
      const row = await executor.selectFrom('mail_outbox').selectAll().where('mail_id', '=', mailId).executeTakeFirst();
      return row && toOutboxMail(row);
    },

    async countPending() {
      const { count } = await executor
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('sent_at', 'is', null)
        .where('dropped_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(count);
    },
  };
};

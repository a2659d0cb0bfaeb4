import type { User } from '../../domain/accounts.ts';
import type { SessionRow } from '../schema.ts';
import type { Executor, RepositoryFactory } from '../store.ts';
import { toUser } from './user-repository.ts';

export type { SessionKind } from '../../domain/statuses.ts';
import type { SessionKind } from '../../domain/statuses.ts';

/** A console cookie's or an Agent API token's session; the token itself is never stored, only its digest. */
export interface Session {
  /** Opaque; what a person names the session by (never the token or its digest). */
  sessionId: string;
  subjectId: string;
  kind: SessionKind;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** When the session last proved the person: its sign-in, or a later re-authentication. */
  provenAt: number;
  /** Opened for a person who must enrol a second factor first: it may only enrol (DESIGN 13). */
  enrolmentRequired?: boolean | undefined;
}

export interface SessionRepository {
  insert(tokenDigest: string, session: Session): Promise<void>;
  /** The session and its user, in one statement: every authenticated API request asks. */
  findWithUser(tokenDigest: string): Promise<{ session: Session; user: User } | undefined>;
  touch(tokenDigest: string, lastSeenAt: number): Promise<void>;
  /** Ends the session if it is still live; the session it ended, or undefined when there was none. */
  revoke(tokenDigest: string, at: number): Promise<Session | undefined>;
  /** Ends every live session of the user; how many it ended. */
  revokeAllOf(subjectId: string, at: number): Promise<number>;
  /** Ends every live session of the user but the one with this token digest; how many it ended. */
  revokeAllOfExcept(subjectId: string, keptTokenDigest: string, at: number): Promise<number>;
  /** The user's unrevoked, unexpired sessions, newest first, each with whether it has this token digest. */
  listLiveOf(subjectId: string, now: number, currentTokenDigest: string | null): Promise<Array<Session & { current: boolean }>>;
  /** Ends the user's live session with this id; false when there is none. */
  revokeById(subjectId: string, sessionId: string, at: number): Promise<boolean>;
  /** Records that the live session with this token digest proved the person again; false when it is not live. */
  markProven(tokenDigest: string, at: number): Promise<boolean>;
}

function toSession(row: SessionRow): Session {
  return {
    sessionId: row.session_id,
    subjectId: row.subject_id,
    kind: row.kind,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    provenAt: row.proven_at ?? row.created_at,
    ...(row.enrolment_required ? { enrolmentRequired: true } : {}),
  };
}

export const sessionRepository: RepositoryFactory<SessionRepository> = () => (executor: Executor) => ({
  async insert(tokenDigest, session) {
    await executor
      .insertInto('sessions')
      .values({
        token_digest: tokenDigest,
        session_id: session.sessionId,
        subject_id: session.subjectId,
        kind: session.kind,
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
        expires_at: session.expiresAt,
        revoked_at: session.revokedAt,
        proven_at: session.provenAt,
        enrolment_required: session.enrolmentRequired ? 1 : 0,
      })
      .execute();
  },

  async findWithUser(tokenDigest) {
    const row = await executor
      .selectFrom('sessions')
      .innerJoin('users', 'users.subject_id', 'sessions.subject_id')
      .selectAll('users')
      .select(['sessions.session_id', 'sessions.kind', 'sessions.created_at as session_created_at', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.revoked_at', 'sessions.proven_at', 'sessions.enrolment_required'])
      .where('sessions.token_digest', '=', tokenDigest)
      .executeTakeFirst();
    if (!row) return undefined;
    const { session_id, kind, session_created_at: createdAt, last_seen_at, expires_at, revoked_at, proven_at, enrolment_required } = row;
    const session = toSession({ token_digest: tokenDigest, session_id, subject_id: row.subject_id, kind, created_at: createdAt, last_seen_at, expires_at, revoked_at, proven_at, enrolment_required });
    return { session, user: toUser(row) };
  },

  async touch(tokenDigest, lastSeenAt) {
    await executor.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('token_digest', '=', tokenDigest).execute();
  },

  async revoke(tokenDigest, at) {
    const row = await executor.selectFrom('sessions').selectAll().where('token_digest', '=', tokenDigest).where('revoked_at', 'is', null).executeTakeFirst();
    if (!row) return undefined;
    // Conditional, so of two logouts racing on one token only one ends it.
    const revoked = await executor.updateTable('sessions').set({ revoked_at: at }).where('token_digest', '=', tokenDigest).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(revoked.numUpdatedRows) === 0) return undefined;
    return { ...toSession(row), revokedAt: at };
  },

  async revokeAllOf(subjectId, at) {
    const revoked = await executor.updateTable('sessions').set({ revoked_at: at }).where('subject_id', '=', subjectId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(revoked.numUpdatedRows);
  },

  async revokeAllOfExcept(subjectId, keptTokenDigest, at) {
    const revoked = await executor
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('subject_id', '=', subjectId)
      .where('token_digest', '<>', keptTokenDigest)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(revoked.numUpdatedRows);
  },

  async listLiveOf(subjectId, now, currentTokenDigest) {
    const rows = await executor
      .selectFrom('sessions')
      .selectAll()
      .where('subject_id', '=', subjectId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((row) => ({ ...toSession(row), current: row.token_digest === currentTokenDigest }));
  },

  async revokeById(subjectId, sessionId, at) {
    const revoked = await executor
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('session_id', '=', sessionId)
      .where('subject_id', '=', subjectId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(revoked.numUpdatedRows) > 0;
  },

  async markProven(tokenDigest, at) {
    const updated = await executor.updateTable('sessions').set({ proven_at: at }).where('token_digest', '=', tokenDigest).where('revoked_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },
});

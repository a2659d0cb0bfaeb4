import type { Actor } from '../domain/actor.ts';
import { sha256Hex } from '../domain/digests.ts';
import { newSecretValue } from '../domain/ids.ts';
import { SESSION_LIFETIME_SECONDS } from '../domain/limits.ts';
import type { SessionKind } from '../domain/statuses.ts';
import { AppError } from '../errors.ts';
import { writeAudit } from './audit.ts';
import type { ServiceDeps } from './deps.ts';
import { createUserService, toUser, type User } from './users.ts';

// last_seen_at is informational; writing it on every request would turn each read into a write.
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionInfo {
  kind: SessionKind;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
}

export interface LoginResult {
  /** The bearer token or cookie value; it exists in clear only in this result, the database keeps its digest. */
  token: string;
  expiresIn: number;
  user: User;
}

const surfaceOf = (kind: SessionKind) => (kind === 'console' ? 'console' : 'agent');

/** Console cookies and Agent API bearer tokens: random tokens stored as SHA-256 digests in one table. */
export function createSessionService(deps: ServiceDeps) {
  const { db, clock } = deps;
  const users = createUserService(deps);

  return {
    async login(account: string, password: string, options: { kind: SessionKind; ip: string | null }): Promise<LoginResult> {
      const user = await users.authenticate(account, password);
      // One answer whatever was wrong: unknown account, wrong password or disabled account.
      if (!user) throw new AppError('invalid_credentials', 'The account or password is wrong, or the account is disabled. Check both and try again.');
      const token = newSecretValue();
      const now = clock.now();
      const actor: Actor = { subjectId: user.subjectId, isAdmin: user.isAdmin, surface: surfaceOf(options.kind), ip: options.ip };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('sessions')
          .values({
            token_digest: sha256Hex(token),
            subject_id: user.subjectId,
            kind: options.kind,
            created_at: now,
            last_seen_at: now,
            expires_at: now + SESSION_LIFETIME_SECONDS * 1000,
            revoked_at: null,
          })
          .execute();
        await writeAudit(trx, clock, actor, { action: 'session.login', targetType: 'user', targetId: user.subjectId, after: { kind: options.kind } });
      });
      return { token, expiresIn: SESSION_LIFETIME_SECONDS, user };
    },

    /** The signed-in user behind a token of this kind, or null when it is unknown, expired, revoked or its user is disabled. */
    async authenticate(token: string, kind: SessionKind): Promise<{ user: User; session: SessionInfo } | null> {
      if (token.length === 0 || token.length > 256) return null;
      // Looked up by digest: timing of the index search reveals nothing about a valid token.
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.subject_id', 'sessions.subject_id')
        .selectAll('users')
        .select(['sessions.token_digest', 'sessions.kind', 'sessions.created_at as session_created_at', 'sessions.expires_at', 'sessions.last_seen_at', 'sessions.revoked_at'])
        .where('sessions.token_digest', '=', sha256Hex(token))
        .executeTakeFirst();
      const now = clock.now();
      if (!row || row.kind !== kind || row.revoked_at !== null || row.expires_at <= now || row.status !== 'active') return null;
      if (now - row.last_seen_at >= LAST_SEEN_RESOLUTION_MS) {
        await db.updateTable('sessions').set({ last_seen_at: now }).where('token_digest', '=', row.token_digest).execute();
      }
      return { user: toUser(row), session: { kind: row.kind, createdAt: row.session_created_at, expiresAt: row.expires_at, lastSeenAt: now } };
    },

    /** Ends the session at once; an unknown or already ended token is not an error. */
    async logout(token: string, options: { ip: string | null } = { ip: null }): Promise<void> {
      const digest = sha256Hex(token);
      await db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('sessions').select(['subject_id', 'kind']).where('token_digest', '=', digest).where('revoked_at', 'is', null).executeTakeFirst();
        if (!row) return;
        const revoked = await trx.updateTable('sessions').set({ revoked_at: clock.now() }).where('token_digest', '=', digest).where('revoked_at', 'is', null).executeTakeFirst();
        if (Number(revoked.numUpdatedRows) === 0) return;
        const actor: Actor = { subjectId: row.subject_id, isAdmin: false, surface: surfaceOf(row.kind), ip: options.ip };
        await writeAudit(trx, clock, actor, { action: 'session.logout', targetType: 'user', targetId: row.subject_id, after: { kind: row.kind } });
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

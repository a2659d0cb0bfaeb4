import { sha256Hex } from '../../domain/digests.ts';
import { precompile } from '../precompiled-query.ts';
import { CompiledQuery, type ExpressionBuilder } from 'kysely';
import type { Db, Engine } from '../database.ts';
import type { ClientsTable, Database, OidcPayloadsTable } from '../schema.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';
import type { AssistantGrantCursor } from '../../domain/views.ts';

export type OidcPayload = Record<string, unknown>;

/** One of oidc-provider's artifacts (session, grant, code, token, interaction) as it is written. */
export interface OidcArtifact {
  kind: string;
  /** oidc-provider's id for it, which for codes, tokens and sessions is the credential itself: only its digest is stored. */
  id: string;
  /** Stored without its `jti` (the id again). */
  payload: OidcPayload;
  grantId: string | null;
  uid: string | null;
  /** The person it belongs to (subject id), so that everything of one person can be revoked at once. */
  accountId: string | null;
  expiresAt: number | null;
}

export interface StoredOidcPayload {
  payload: OidcPayload;
  consumedAt: number | null;
}

export interface OidcPayloadRepository {
  /** The unexpired artifact of this kind and id, its payload's `jti` filled in with the id asked for. */
  find(kind: string, id: string, now: number): Promise<StoredOidcPayload | undefined>;
  /** The unexpired artifact with this uid (sessions). The id is not stored, so its payload has no `jti`. */
  findByUid(kind: string, uid: string, now: number): Promise<StoredOidcPayload | undefined>;
  /** Writes or replaces the artifact; a replaced one is no longer consumed. */
  upsert(artifact: OidcArtifact): Promise<void>;
  /** Marks the artifact consumed; false when it was already (or does not exist): of concurrent callers one wins. */
  consume(kind: string, id: string, now: number): Promise<boolean>;
  /**
   * The unexpired artifact of this kind and id together with, in the same statement, the unexpired grant it
   * was issued under and the unexpired session it is bound to (its payload's `sessionUid`): what a token or
   * userinfo request reads. The grant comes with its `jti`, the session without (as findByUid gives it).
   */
  findWithGrantAndSession(kind: string, id: string, now: number): Promise<ArtifactWithGrantAndSession>;
  /**
   * A request's writes together, all or nothing: one statement on PostgreSQL, one transaction on SQLite when
   * it takes more than one. With `consumed`, that artifact is marked consumed first, and when it was consumed
   * already or is gone nothing is written and the answer is false: of concurrent callers one wins.
   */
  writeTogether(writes: RequestWrites, now: number): Promise<boolean>;
  /** Whether there was one to delete (of concurrent callers, one). */
  destroy(kind: string, id: string): Promise<boolean>;
  /** Deletes the artifacts of this kind issued under the grant. */
  revokeByGrantId(kind: string, grantId: string): Promise<void>;
  /**
   * Deletes the grant the given artifact was issued under, and every code and token of that grant. Returns
   * the grant when this call ended it (of concurrent callers, one), undefined otherwise.
   */
  revokeGrantOf(kind: string, id: string): Promise<{ grantId: string; accountId: string | null; clientId: string | null; clientName: string | null } | undefined>;
  /**
   * Deletes every artifact of the person: sessions, grants, codes, access and refresh tokens,
   * interactions. Returns how many rows went.
   */
  revokeAllForAccount(accountId: string): Promise<number>;
  /** Deletes every grant, code and token issued to the client. Returns how many grants were ended. */
  revokeAllForClient(clientId: string): Promise<number>;
  /** Deletes expired rows a batch at a time until none is left; returns how many this call deleted. */
  pruneExpired(now: number, batchSize?: number): Promise<number>;
  /** The person's unexpired OIDC sign-in sessions, by uid (never the cookie). */
  listSessionsOf(accountId: string, now: number): Promise<Array<{ uid: string; payload: OidcPayload }>>;
  /** Ends the person's OIDC session with this uid; false when there is none. */
  destroySessionOf(accountId: string, uid: string): Promise<boolean>;
  /**
   * The person's unexpired grants, each with when it was last used: the later of a code or token
   * issued under it and its token last accepted at Sesame's own APIs (null when never).
   */
  listGrantsOf(accountId: string, now: number): Promise<Array<{ grantId: string; payload: OidcPayload; lastIssuedAt: number | null; clientName: string | null }>>;
  /** Deletes the person's grant and every code and token issued under it; the grant's client, or undefined when the person has no such grant. */
  revokeGrantOfAccount(accountId: string, grantId: string): Promise<{ clientId: string | null } | undefined>;
  /**
   * A page of the unexpired grants of native clients (assistants), newest first, with their client's
   * name and their person's account; `before` is where the previous page ended (its last grant's expiry and id).
   */
  listAssistantGrants(now: number, page: { limit: number; before?: AssistantGrantCursor | undefined }): Promise<AssistantGrantRecord[]>;
  /** The person and client of the unexpired grant of a native client with this id; undefined when there is none. */
  findAssistantGrant(grantId: string, now: number): Promise<{ accountId: string; clientId: string } | undefined>;
  /** Keeps on the grant the name its assistant's metadata document gave when the person consented. */
  nameGrantClient(grantId: string, clientName: string): Promise<void>;
  /** The name kept on the grant by nameGrantClient; null when none was. */
  grantClientName(grantId: string): Promise<string | null>;
  /** Records that a token of the grant was just accepted, unless that was recorded less than `minIntervalMs` ago. */
  noteGrantUsed(grantId: string, now: number, minIntervalMs: number): Promise<void>;
}

export type { AssistantGrantCursor };

export interface RequestWrites {
  consumed: { kind: string; id: string } | undefined;
  deleted: Array<{ kind: string; id: string }>;
  /** Written or replaced; a replaced one is no longer consumed. */
  written: OidcArtifact[];
}

export interface ArtifactWithGrantAndSession {
  artifact: StoredOidcPayload | undefined;
  grant: StoredOidcPayload | undefined;
  session: StoredOidcPayload | undefined;
}

/** A grant of a native client (an assistant's connection) as administrators list it. */
export interface AssistantGrantRecord {
  grantId: string;
  clientId: string;
  clientDisplayName: string;
  subjectId: string;
  account: string;
  payload: OidcPayload;
  /** The grant's expiry, fixed when it was made: with the grantId, where a page ends. */
  expiresAt: number;
  /** The later of a code or token issued under it and its token last accepted at /mcp or /api/agent. */
  lastUsedAt: number | null;
}

export const PRUNE_BATCH_SIZE = 500;

// What oidc-provider's own revocation of a grant removes: the grant and the tokens and codes issued under it.
const GRANT_ARTIFACT_KINDS = ['AccessToken', 'RefreshToken', 'AuthorizationCode'];

/** For each grant, when a code or token was last issued under it (their `iat`, in epoch ms). */
function lastIssuedByGrant(rows: Array<{ grant_id: string | null; payload: string }>): Map<string, number> {
  const lastIssued = new Map<string, number>();
  for (const row of rows) {
    if (!row.grant_id) continue;
    const iat = (JSON.parse(row.payload) as OidcPayload).iat;
    if (typeof iat === 'number') lastIssued.set(row.grant_id, Math.max(lastIssued.get(row.grant_id) ?? 0, iat * 1000));
  }
  return lastIssued;
}

/**
 * A grant of an assistant: of a registered native client, or of one known by its client ID metadata
 * document (no row in clients; its grant keeps the document's name).
 */
const assistantGrant = (eb: ExpressionBuilder<Database & { clients: ClientsTable }, 'oidc_payloads' | 'clients'>) =>
  eb.or([eb('clients.client_type', '=', 'native'), eb.and([eb('clients.client_id', 'is', null), eb('oidc_payloads.client_name', 'is not', null)])]);

const later = (a: number | null | undefined, b: number | null | undefined): number | null => (a == null ? (b ?? null) : b == null ? a : Math.max(a, b));

const toStored = (row: { payload: string; consumed_at: number | null }, jti: string | undefined): StoredOidcPayload => {
  const payload = JSON.parse(row.payload) as OidcPayload;
  return { payload: jti === undefined ? payload : { ...payload, jti }, consumedAt: row.consumed_at };
};

function toRow(artifact: OidcArtifact): Omit<OidcPayloadsTable, 'consumed_at' | 'last_used_at' | 'client_name'> {
  const { jti: _id, ...payload } = artifact.payload;
  const clientId = typeof payload.clientId === 'string' ? payload.clientId : null;
  return {
    kind: artifact.kind,
    id: sha256Hex(artifact.id),
    payload: JSON.stringify(payload),
    grant_id: artifact.grantId,
    uid: artifact.uid,
    account_id: artifact.accountId,
    client_id: clientId,
    expires_at: artifact.expiresAt,
  };
}

/**
 * The artifact, its grant (by the digest of its `grant_id`, the grant's key: a grant's own `grant_id` would
 * also match every token issued under it) and its session (by uid, the artifact's `sessionUid`) in one
 * statement, one row each: `role` says which. Parameters: kind, id digest, now three times.
 */
function artifactWithGrantAndSessionSql(engine: Engine): string {
  const p = placeholders(engine);
  const sessionUid = engine === 'postgres' ? `payload::json ->> 'sessionUid'` : `json_extract(payload, '$.sessionUid')`;
  // SQLite has no digest of its own: sqlite-dialect.ts gives each connection sha256_hex.
  const grantKey = engine === 'postgres' ? `encode(sha256(convert_to(artifact.grant_id, 'UTF8')), 'hex')` : 'sha256_hex(artifact.grant_id)';
  const unexpired = (table: string) => `(${table}.expires_at is null or ${table}.expires_at > ${p()})`;
  return `with artifact as (select payload, consumed_at, grant_id, ${sessionUid} as session_uid from oidc_payloads where kind = ${p()} and id = ${p()} and ${unexpired('oidc_payloads')})`
    + ` select 'artifact' as role, payload, consumed_at from artifact`
    + ` union all select 'grant', g.payload, g.consumed_at from artifact join oidc_payloads g on g.kind = 'Grant' and g.id = ${grantKey} where ${unexpired('g')}`
    + ` union all select 'session', s.payload, s.consumed_at from artifact join oidc_payloads s on s.kind = 'Session' and s.uid = artifact.session_uid where ${unexpired('s')}`;
}

/** Numbered placeholders on PostgreSQL (from `first`), positional ones on SQLite. */
function placeholders(engine: Engine, first = 1): () => string {
  let next = first;
  return engine === 'postgres' ? () => `$${next++}` : () => '?';
}

const ARTIFACT_COLUMNS = ['kind', 'id', 'payload', 'grant_id', 'uid', 'account_id', 'client_id', 'expires_at'] as const;

/**
 * The statements of writeTogether, their texts made once per shape. `p` numbers the parameters in the
 * order the text takes them; `ifConsumed` makes a write depend on the `consumed` CTE (PostgreSQL).
 */
function requestWriteSql(engine: Engine) {
  const consume = (p: () => string) => `update oidc_payloads set consumed_at = ${p()} where kind = ${p()} and id = ${p()} and consumed_at is null`;
  const remove = (p: () => string, count: number, ifConsumed: boolean) =>
    `delete from oidc_payloads where ${ifConsumed ? 'exists (select 1 from consumed) and ' : ''}(${Array.from({ length: count }, () => `(kind = ${p()} and id = ${p()})`).join(' or ')})`;
  const insert = (p: () => string, count: number, ifConsumed: boolean) => {
    // Each parameter is cast: a bare one in a select list has no type PostgreSQL could infer.
    const row = () => `select ${ARTIFACT_COLUMNS.map((column) => `cast(${p()} as ${column === 'expires_at' ? 'bigint' : 'text'}) as ${column}`).join(', ')}`;
    const columns = ARTIFACT_COLUMNS.join(', ');
    const update = ARTIFACT_COLUMNS.filter((column) => column !== 'kind' && column !== 'id').map((column) => `${column} = excluded.${column}`).join(', ');
    // SQLite needs the WHERE to tell the upsert's ON CONFLICT from a join's ON.
    return `insert into oidc_payloads (${columns}) select ${columns} from (${Array.from({ length: count }, row).join(' union all ')}) as written`
      + ` where ${ifConsumed ? 'exists (select 1 from consumed)' : 'true'} on conflict (kind, id) do update set ${update}, consumed_at = null`;
  };
  const texts = new Map<string, string>();
  const memo = (key: string, make: () => string) => {
    let text = texts.get(key);
    if (text === undefined) texts.set(key, (text = make()));
    return text;
  };
  return {
    /**
     * PostgreSQL: the whole request in one statement. Data-modifying CTEs share one snapshot: the other writes
     * see the consume only through its RETURNING rows, and a concurrent consumer waits for this one's row lock,
     * then finds it consumed and writes nothing. Parameters: consume's (now, kind, id), deletes', rows'.
     */
    together(consumed: boolean, deleted: number, written: number): string {
      return memo(`together ${consumed} ${deleted} ${written}`, () => {
        const p = placeholders(engine);
        const parts = [
          consumed ? `consumed as (${consume(p)} returning 1)` : '',
          deleted > 0 ? `gone as (${remove(p, deleted, consumed)})` : '',
          written > 0 ? `written as (${insert(p, written, consumed)})` : '',
        ].filter(Boolean);
        return `with ${parts.join(', ')} select ${consumed ? 'count(*) as consumed from consumed' : '1 as consumed'}`;
      });
    },
    remove: (count: number) => memo(`remove ${count}`, () => remove(placeholders(engine), count, false)),
    insert: (count: number) => memo(`insert ${count}`, () => insert(placeholders(engine), count, false)),
  };
}

/** The owner of `oidc_payloads`. `engine` chooses how expired rows are pruned. */
export const oidcPayloadRepository: RepositoryFactory<OidcPayloadRepository> = (db, engine) => {
  // Every protocol request runs several of these; each is compiled once (precompiled-query.ts).
  const live = (value: (slot: 'kind' | 'now') => never) => db.selectFrom('oidc_payloads').select(['payload', 'consumed_at']).where('kind', '=', value('kind'))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', value('now'))]));
  const findById = precompile(['kind', 'now', 'id'], (value) => live(value).where('id', '=', value('id')));
  const findByUid = precompile(['kind', 'now', 'uid'], (value) => live(value).where('uid', '=', value('uid')));
  const upsert = precompile(['kind', 'id', 'payload', 'grant_id', 'uid', 'account_id', 'client_id', 'expires_at'], (value) => {
    const row = { payload: value('payload'), grant_id: value('grant_id'), uid: value('uid'), account_id: value('account_id'), client_id: value('client_id'), expires_at: value('expires_at'), consumed_at: null };
    return db.insertInto('oidc_payloads').values({ kind: value('kind'), id: value('id'), ...row }).onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet(row));
  });
  const markConsumed = precompile(['kind', 'now', 'id'], (value) =>
    db.updateTable('oidc_payloads').set({ consumed_at: value('now') }).where('kind', '=', value('kind')).where('id', '=', value('id')).where('consumed_at', 'is', null));
  const withGrantAndSession = artifactWithGrantAndSessionSql(engine);
  const requestWrites = requestWriteSql(engine);

  async function writeTogether(executor: Executor, { consumed, deleted, written }: RequestWrites, now: number): Promise<boolean> {
    const keys = deleted.flatMap(({ kind, id }) => [kind, sha256Hex(id)]);
    const rows = written.flatMap((artifact) => {
      const row = toRow(artifact);
      return ARTIFACT_COLUMNS.map((column) => row[column]);
    });
    const statements = [
      ...(deleted.length > 0 ? [CompiledQuery.raw(requestWrites.remove(deleted.length), keys)] : []),
      ...(written.length > 0 ? [CompiledQuery.raw(requestWrites.insert(written.length), rows)] : []),
    ];
    // A single statement is atomic on its own.
    if (consumed === undefined && statements.length <= 1) {
      if (statements[0]) await executor.executeQuery(statements[0]);
      return true;
    }
    if (engine === 'postgres') {
      const statement = requestWrites.together(consumed !== undefined, deleted.length, written.length);
      const consumeParameters = consumed === undefined ? [] : [now, consumed.kind, sha256Hex(consumed.id)];
      const result = await executor.executeQuery(CompiledQuery.raw(statement, [...consumeParameters, ...keys, ...rows]) as CompiledQuery<{ consumed: number }>);
      return Number(result.rows[0]?.consumed ?? 0) > 0;
    }
    const write = async (trx: Executor) => {
      if (consumed !== undefined) {
        const marked = await trx.executeQuery(markConsumed({ kind: consumed.kind, now, id: sha256Hex(consumed.id) }));
        if ((marked.numAffectedRows ?? 0n) === 0n) return false;
      }
      for (const statement of statements) await trx.executeQuery(statement);
      return true;
    };
    return executor.isTransaction ? write(executor) : (executor as Db).transaction().execute(write);
  }

  return (executor: Executor): OidcPayloadRepository => {
    /** Deletes the grant and every code and token issued under it; whether the grant was there to delete (of concurrent callers, one). */
    const endGrant = async (grantId: string): Promise<boolean> => {
      const grant = await executor.deleteFrom('oidc_payloads').where('kind', '=', 'Grant').where('id', '=', sha256Hex(grantId)).executeTakeFirst();
      await executor.deleteFrom('oidc_payloads').where('kind', 'in', GRANT_ARTIFACT_KINDS).where('grant_id', '=', grantId).execute();
      return Number(grant.numDeletedRows) > 0;
    };
    const repository: OidcPayloadRepository = {
      async find(kind, id, now) {
        const row = (await executor.executeQuery(findById({ kind, now, id: sha256Hex(id) }))).rows[0];
        return row && toStored(row, id);
      },
      async findByUid(kind, uid, now) {
        if (!isStorableText(uid)) return undefined;
        const row = (await executor.executeQuery(findByUid({ kind, now, uid }))).rows[0];
        return row && toStored(row, undefined);
      },
      async upsert(artifact) {
        await executor.executeQuery(upsert(toRow(artifact)));
      },
      async findWithGrantAndSession(kind, id, now) {
        const { rows } = await executor.executeQuery(CompiledQuery.raw(withGrantAndSession, [kind, sha256Hex(id), now, now, now]) as CompiledQuery<{ role: string; payload: string; consumed_at: number | null }>);
        const artifactRow = rows.find((row) => row.role === 'artifact');
        const artifact = artifactRow && toStored(artifactRow, id);
        const grantId = artifact?.payload.grantId;
        const grantRow = rows.find((row) => row.role === 'grant');
        const sessionRow = rows.find((row) => row.role === 'session');
        return {
          artifact,
          grant: grantRow && typeof grantId === 'string' ? toStored(grantRow, grantId) : undefined,
          session: sessionRow && toStored(sessionRow, undefined),
        };
      },
      writeTogether: (writes, now) => writeTogether(executor, writes, now),
      async consume(kind, id, now) {
        const marked = await executor.executeQuery(markConsumed({ kind, now, id: sha256Hex(id) }));
        return (marked.numAffectedRows ?? 0n) > 0n;
      },
      async destroy(kind, id) {
        const deleted = await executor.deleteFrom('oidc_payloads').where('kind', '=', kind).where('id', '=', sha256Hex(id)).executeTakeFirst();
        return Number(deleted.numDeletedRows) > 0;
      },
      async revokeByGrantId(kind, grantId) {
        if (!isStorableText(grantId)) return;
        await executor.deleteFrom('oidc_payloads').where('kind', '=', kind).where('grant_id', '=', grantId).execute();
      },
      async revokeGrantOf(kind, id) {
        const row = await executor.selectFrom('oidc_payloads').select(['grant_id', 'account_id', 'client_id']).where('kind', '=', kind).where('id', '=', sha256Hex(id)).executeTakeFirst();
        const grantId = row?.grant_id;
        if (!grantId) return undefined;
        const named = await executor.selectFrom('oidc_payloads').select('client_name').where('kind', '=', 'Grant').where('id', '=', sha256Hex(grantId)).executeTakeFirst();
        return (await endGrant(grantId)) ? { grantId, accountId: row.account_id, clientId: row.client_id, clientName: named?.client_name ?? null } : undefined;
      },
      async revokeAllForAccount(accountId) {
        if (!isStorableText(accountId)) return 0;
        const result = await executor.deleteFrom('oidc_payloads').where('account_id', '=', accountId).executeTakeFirst();
        return Number(result.numDeletedRows);
      },
      async revokeAllForClient(clientId) {
        if (!isStorableText(clientId)) return 0;
        const grants = await executor.deleteFrom('oidc_payloads').where('client_id', '=', clientId).where('kind', '=', 'Grant').executeTakeFirst();
        await executor.deleteFrom('oidc_payloads').where('client_id', '=', clientId).execute();
        return Number(grants.numDeletedRows);
      },
      async pruneExpired(now, batchSize = PRUNE_BATCH_SIZE) {
        // On PostgreSQL each batch takes only rows no other transaction holds (FOR UPDATE SKIP LOCKED):
        // instances pruning at the same moment split the expired rows between them instead of queueing
        // on, or deadlocking over, the same ones. SQLite has one writer at a time: nothing to split.
        let deleted = 0;
        for (;;) {
          const expired = executor.selectFrom('oidc_payloads').select(['kind', 'id']).where('expires_at', '<', now).limit(batchSize);
          const batch = engine === 'postgres' ? expired.forUpdate().skipLocked() : expired;
          const result = await executor
            .deleteFrom('oidc_payloads')
            .where((eb) => eb(eb.refTuple('kind', 'id'), 'in', batch.$asTuple('kind', 'id')))
            .executeTakeFirst();
          const count = Number(result.numDeletedRows);
          deleted += count;
          if (count < batchSize) return deleted;
        }
      },
      async listSessionsOf(accountId, now) {
        const rows = await executor
          .selectFrom('oidc_payloads')
          .select(['uid', 'payload'])
          .where('kind', '=', 'Session')
          .where('account_id', '=', accountId)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .execute();
        return rows.flatMap((row) => (row.uid ? [{ uid: row.uid, payload: JSON.parse(row.payload) as OidcPayload }] : []));
      },
      async destroySessionOf(accountId, uid) {
        if (!isStorableText(uid)) return false;
        const deleted = await executor.deleteFrom('oidc_payloads').where('kind', '=', 'Session').where('account_id', '=', accountId).where('uid', '=', uid).executeTakeFirst();
        return Number(deleted.numDeletedRows) > 0;
      },
      async listGrantsOf(accountId, now) {
        const rows = await executor
          .selectFrom('oidc_payloads')
          .select(['kind', 'grant_id', 'payload', 'last_used_at', 'client_name'])
          .where('account_id', '=', accountId)
          .where('kind', 'in', ['Grant', ...GRANT_ARTIFACT_KINDS])
          .where('grant_id', 'is not', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .execute();
        const lastIssued = lastIssuedByGrant(rows.filter((row) => row.kind !== 'Grant'));
        return rows
          .filter((row) => row.kind === 'Grant' && row.grant_id)
          .map((row) => ({ grantId: row.grant_id as string, payload: JSON.parse(row.payload) as OidcPayload, lastIssuedAt: later(lastIssued.get(row.grant_id as string), row.last_used_at), clientName: row.client_name }));
      },
      async revokeGrantOfAccount(accountId, grantId) {
        if (!isStorableText(grantId)) return undefined;
        const grant = await executor.selectFrom('oidc_payloads').select('payload').where('kind', '=', 'Grant').where('id', '=', sha256Hex(grantId)).where('account_id', '=', accountId).executeTakeFirst();
        if (!grant) return undefined;
        await endGrant(grantId);
        const clientId = (JSON.parse(grant.payload) as OidcPayload).clientId;
        return { clientId: typeof clientId === 'string' ? clientId : null };
      },
      async listAssistantGrants(now, { limit, before }) {
        let query = executor
          .selectFrom('oidc_payloads')
          .leftJoin('clients', 'clients.client_id', 'oidc_payloads.client_id')
          .innerJoin('users', 'users.subject_id', 'oidc_payloads.account_id')
          .select(['oidc_payloads.grant_id', 'oidc_payloads.client_id', 'oidc_payloads.payload', 'oidc_payloads.expires_at', 'oidc_payloads.last_used_at', 'oidc_payloads.client_name', 'clients.display_name', 'users.subject_id', 'users.account'])
          .where('oidc_payloads.kind', '=', 'Grant')
          .where(assistantGrant)
          .where('oidc_payloads.grant_id', 'is not', null)
          .where('oidc_payloads.expires_at', '>', now);
        // A grant's expiry is fixed when it is made (its lifetime is constant), so it orders grants by age.
        if (before) {
          query = query.where((eb) => eb.or([
            eb('oidc_payloads.expires_at', '<', before.expiresAt),
            eb.and([eb('oidc_payloads.expires_at', '=', before.expiresAt), eb('oidc_payloads.grant_id', '<', before.grantId)]),
          ]));
        }
        const grants = await query.orderBy('oidc_payloads.expires_at', 'desc').orderBy('oidc_payloads.grant_id', 'desc').limit(limit).execute();
        if (grants.length === 0) return [];
        const tokens = await executor
          .selectFrom('oidc_payloads')
          .select(['grant_id', 'payload'])
          .where('kind', 'in', GRANT_ARTIFACT_KINDS)
          .where('grant_id', 'in', grants.map((grant) => grant.grant_id as string))
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .execute();
        const lastIssued = lastIssuedByGrant(tokens);
        return grants.map((grant) => ({
          grantId: grant.grant_id as string,
          clientId: grant.client_id as string,
          clientDisplayName: grant.display_name ?? grant.client_name ?? (grant.client_id as string),
          subjectId: grant.subject_id,
          account: grant.account,
          payload: JSON.parse(grant.payload) as OidcPayload,
          expiresAt: grant.expires_at as number,
          lastUsedAt: later(lastIssued.get(grant.grant_id as string), grant.last_used_at),
        }));
      },
      async findAssistantGrant(grantId, now) {
        if (!isStorableText(grantId)) return undefined;
        const grant = await executor
          .selectFrom('oidc_payloads')
          .leftJoin('clients', 'clients.client_id', 'oidc_payloads.client_id')
          .select(['oidc_payloads.account_id', 'oidc_payloads.client_id'])
          .where('oidc_payloads.kind', '=', 'Grant')
          .where('oidc_payloads.id', '=', sha256Hex(grantId))
          .where(assistantGrant)
          .where((eb) => eb.or([eb('oidc_payloads.expires_at', 'is', null), eb('oidc_payloads.expires_at', '>', now)]))
          .executeTakeFirst();
        return grant?.account_id && grant.client_id ? { accountId: grant.account_id, clientId: grant.client_id } : undefined;
      },
      async nameGrantClient(grantId, clientName) {
        if (!isStorableText(grantId)) return;
        await executor.updateTable('oidc_payloads').set({ client_name: clientName }).where('kind', '=', 'Grant').where('id', '=', sha256Hex(grantId)).execute();
      },
      async grantClientName(grantId) {
        if (!isStorableText(grantId)) return null;
        const row = await executor.selectFrom('oidc_payloads').select('client_name').where('kind', '=', 'Grant').where('id', '=', sha256Hex(grantId)).executeTakeFirst();
        return row?.client_name ?? null;
      },
      async noteGrantUsed(grantId, now, minIntervalMs) {
        if (!isStorableText(grantId)) return;
        await executor
          .updateTable('oidc_payloads')
          .set({ last_used_at: now })
          .where('kind', '=', 'Grant')
          .where('id', '=', sha256Hex(grantId))
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - minIntervalMs)]))
          .execute();
      },
    };
    return repository;
  };
};

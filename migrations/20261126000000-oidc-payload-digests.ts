import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

// Self-contained on purpose: a migration must keep doing what it did when later code changes.
const BATCH = 500;
const digest = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

interface PlainRow {
  kind: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  expires_at: number | string | null;
  consumed_at: number | string | null;
}

/**
 * The artifact as it is stored from now on: keyed by the digest of its id, the id (`jti`) left out of
 * the payload, and an interaction's copy of the session cookie dropped. Undefined for a payload that is
 * not a JSON object: no reader could use it, so it is not carried over.
 */
function withoutTokens(row: PlainRow) {
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const { jti: _jti, ...rest } = payload as Record<string, unknown>;
  const session = rest.session as Record<string, unknown> | undefined;
  if (row.kind === 'Interaction' && session && typeof session === 'object') {
    const { cookie: _cookie, ...sessionRest } = session;
    rest.session = sessionRest;
  }
  const accountId = typeof rest.accountId === 'string' ? rest.accountId : typeof session?.accountId === 'string' ? session.accountId : null;
  return {
    kind: row.kind,
    id: digest(row.id),
    payload: JSON.stringify(rest),
    grant_id: row.grant_id,
    uid: row.uid,
    account_id: row.kind === 'RememberedConsent' ? row.id.split(' ')[0]! : accountId,
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
    consumed_at: row.consumed_at === null ? null : Number(row.consumed_at),
  };
}

/**
 * oidc_payloads held every token, code and session id in clear (the row id, and the payload's jti):
 * anyone reading the database or a backup held usable tokens. The table is rebuilt keyed by a
 * SHA-256 digest of the id, with an indexed account column, and every existing row is carried over.
 * One transaction on both engines (PostgreSQL's migrator already opened it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const rebuild = async (trx: Kysely<any>) => {
    await trx.schema.alterTable('oidc_payloads').renameTo('oidc_payloads_plain').execute();
    for (const index of ['oidc_payloads_grant', 'oidc_payloads_uid', 'oidc_payloads_expires']) await trx.schema.dropIndex(index).execute();

    await trx.schema
      .createTable('oidc_payloads')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('account_id', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('consumed_at', 'bigint')
      // The old table still holds the name oidc_payloads_pk until it is dropped below.
      .addPrimaryKeyConstraint('oidc_payloads_digest_pk', ['kind', 'id'])
      .execute();
    await trx.schema.createIndex('oidc_payloads_grant').on('oidc_payloads').column('grant_id').execute();
    await trx.schema.createIndex('oidc_payloads_uid').on('oidc_payloads').column('uid').execute();
    await trx.schema.createIndex('oidc_payloads_expires').on('oidc_payloads').column('expires_at').execute();
    await trx.schema.createIndex('oidc_payloads_account').on('oidc_payloads').column('account_id').execute();

    let after: [string, string] | undefined;
    for (;;) {
      let query = trx.selectFrom('oidc_payloads_plain').selectAll().orderBy('kind').orderBy('id').limit(BATCH);
      if (after) query = query.where((eb) => eb(eb.refTuple('kind', 'id'), '>', eb.tuple(after![0], after![1])));
      const rows = (await query.execute()) as PlainRow[];
      const carried = rows.map(withoutTokens).filter((row) => row !== undefined);
      if (carried.length > 0) await trx.insertInto('oidc_payloads').values(carried).execute();
      if (rows.length < BATCH) break;
      const last = rows[rows.length - 1]!;
      after = [last.kind, last.id];
    }
    await trx.schema.dropTable('oidc_payloads_plain').execute();
  };
  if (db.isTransaction) await rebuild(db);
  else await db.transaction().execute(rebuild);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

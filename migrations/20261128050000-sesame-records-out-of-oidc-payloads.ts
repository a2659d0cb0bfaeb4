import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

// Self-contained on purpose: a migration must keep doing what it did when later code changes.
const BATCH = 500;
const digest = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

interface ConsentRow {
  id: string;
  payload: string;
  account_id: string | null;
  client_id: string | null;
  expires_at: number | string | null;
}

function scopesOf(payload: string): string[] {
  try {
    const scopes: unknown = (JSON.parse(payload) as { scopes?: unknown } | null)?.scopes;
    return Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * oidc_payloads held, beside oidc-provider's artifacts, records of Sesame's own under kinds of their own:
 * remembered consent, upstream sign-ins sent to the provider, and console sign-ins the provider confirmed.
 * Each gets a table of its own. Remembered consent is carried over; the sign-ins in flight (ten minutes
 * at most) are dropped: a person in the middle of one starts it again.
 *
 * Remembered consent was keyed by the digest of `<subject> <client>`. Its client is in client_id, except
 * on rows written before that column (20261126130000-oidc-payload-client): for those the client is found
 * again among the registered clients and the clients of the person's other artifacts by that digest; a
 * row whose client is found nowhere is dropped (a deleted client's, most likely; otherwise the person is
 * asked to consent again).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const move = async (trx: Kysely<any>) => {
    await trx.schema
      .createTable('remembered_consents')
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('remembered_consents_pk', ['subject_id', 'client_id'])
      .execute();
    await trx.schema.createIndex('remembered_consents_client').on('remembered_consents').column('client_id').execute();
    await trx.schema.createIndex('remembered_consents_expires').on('remembered_consents').column('expires_at').execute();

    await trx.schema
      .createTable('upstream_sign_ins')
      .addColumn('state_digest', 'text', (c) => c.primaryKey())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('interaction_uid', 'text')
      .addColumn('console_browser', 'text')
      .addColumn('console_next', 'text')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await trx.schema.createIndex('upstream_sign_ins_expires').on('upstream_sign_ins').column('expires_at').execute();

    await trx.schema
      .createTable('upstream_console_sign_ins')
      .addColumn('browser_digest', 'text', (c) => c.primaryKey())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await trx.schema.createIndex('upstream_console_sign_ins_expires').on('upstream_console_sign_ins').column('expires_at').execute();

    let registered: string[] | undefined;
    const clientOf = async (row: ConsentRow & { account_id: string }): Promise<string | undefined> => {
      if (row.client_id !== null) return row.client_id;
      registered ??= ((await trx.selectFrom('clients').select('client_id').execute()) as Array<{ client_id: string }>).map((r) => r.client_id);
      const theirs = (await trx.selectFrom('oidc_payloads').select('client_id').distinct().where('account_id', '=', row.account_id).where('client_id', 'is not', null).execute()) as Array<{ client_id: string }>;
      return [...registered, ...theirs.map((r) => r.client_id)].find((clientId) => digest(`${row.account_id} ${clientId}`) === row.id);
    };

    let after: string | undefined;
    for (;;) {
      let query = trx.selectFrom('oidc_payloads').select(['id', 'payload', 'account_id', 'client_id', 'expires_at']).where('kind', '=', 'RememberedConsent').orderBy('id').limit(BATCH);
      if (after !== undefined) query = query.where('id', '>', after);
      const rows = (await query.execute()) as ConsentRow[];
      const carried = [];
      for (const row of rows) {
        const scopes = scopesOf(row.payload);
        if (row.account_id === null || row.expires_at === null || scopes.length === 0) continue;
        const clientId = await clientOf({ ...row, account_id: row.account_id });
        if (clientId !== undefined) carried.push({ subject_id: row.account_id, client_id: clientId, scopes: JSON.stringify(scopes), expires_at: Number(row.expires_at) });
      }
      if (carried.length > 0) await trx.insertInto('remembered_consents').values(carried).execute();
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    await trx.deleteFrom('oidc_payloads').where('kind', 'in', ['RememberedConsent', 'UpstreamSignIn', 'UpstreamConsoleSignIn']).execute();
  };
  if (db.isTransaction) await move(db);
  else await db.transaction().execute(move);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

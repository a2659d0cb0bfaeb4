import type { Kysely } from 'kysely';

// Self-contained on purpose: a migration must keep doing what it did when later code changes.
const BATCH = 500;

/**
 * The client an artifact (grant, code, token, remembered consent) was issued to, as an indexed column:
 * deleting a client, or ending its tokens, removes its artifacts in one statement. Existing rows get it
 * from their payload's `clientId`, or, for remembered consent, from its id (`<accountId> <clientId>`,
 * stored only as a digest, so those older rows keep a null client and simply expire).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oidc_payloads').addColumn('client_id', 'text').execute();
  await db.schema.createIndex('oidc_payloads_client').on('oidc_payloads').column('client_id').execute();
  let after: { kind: string; id: string } | undefined;
  for (;;) {
    let query = db.selectFrom('oidc_payloads').select(['kind', 'id', 'payload']).orderBy('kind').orderBy('id').limit(BATCH);
    if (after) {
      const last = after;
      query = query.where((eb: any) => eb.or([eb('kind', '>', last.kind), eb.and([eb('kind', '=', last.kind), eb('id', '>', last.id)])]));
    }
    const rows = (await query.execute()) as Array<{ kind: string; id: string; payload: string }>;
    for (const row of rows) {
      const clientId = clientOf(row.payload);
      if (clientId !== null) await db.updateTable('oidc_payloads').set({ client_id: clientId }).where('kind', '=', row.kind).where('id', '=', row.id).execute();
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!;
  }
}

function clientOf(text: string): string | null {
  try {
    const payload = JSON.parse(text) as { clientId?: unknown } | null;
    return payload && typeof payload.clientId === 'string' ? payload.clientId : null;
  } catch {
    return null;
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Clock } from '../domain/clock.ts';
import type { Db, Engine } from '../storage/database.ts';
import { precompile } from '../storage/precompiled-query.ts';
import { isStorableText } from '../domain/text-rules.ts';
import { createClientMetadataFinder } from './client-metadata.ts';
import { pruneExpiredPayloads } from './expired-payloads.ts';

// Pruning expired rows is housekeeping, not correctness (expired rows read as absent), so it runs
// now and then on writes rather than on a timer every instance would need to own.
const PRUNE_EVERY_WRITES = 500;

/**
 * oidc-provider's storage over the `oidc_payloads` table, one instance per model name. Sessions,
 * grants, codes and tokens survive a restart and are shared by every instance on the database.
 * The `Client` model is not stored here: clients are read from the clients table on every lookup.
 */
export function createOidcAdapterFactory(deps: { db: Db; clock: Clock; engine?: Engine }): (model: string) => Adapter {
  let writes = 0;
  const pruneNowAndThen = () => {
    writes += 1;
    if (writes % PRUNE_EVERY_WRITES !== 0) return;
    void pruneExpiredPayloads(deps.db, deps.engine ?? 'sqlite', deps.clock.now()).catch(() => {});
  };
  return (model) => (model === 'Client' ? clientAdapter(deps) : payloadAdapter(model, deps, pruneNowAndThen));
}

function payloadAdapter(kind: string, { db, clock }: { db: Db; clock: Clock }, afterWrite: () => void): Adapter {
  // Every protocol request runs several of these; each is compiled once (precompiled-query.ts).
  const live = (value: (slot: 'now') => never) => db.selectFrom('oidc_payloads').select(['payload', 'consumed_at']).where('kind', '=', kind)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', value('now'))]));
  const findById = precompile(['now', 'id'], (value) => live(value).where('id', '=', value('id')));
  const findByUid = precompile(['now', 'uid'], (value) => live(value).where('uid', '=', value('uid')));
  const upsert = precompile(['id', 'payload', 'grant_id', 'uid', 'expires_at'], (value) => {
    const row = { payload: value('payload'), grant_id: value('grant_id'), uid: value('uid'), expires_at: value('expires_at'), consumed_at: null };
    return db.insertInto('oidc_payloads').values({ kind, id: value('id'), ...row }).onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet(row));
  });
  const markConsumed = precompile(['now', 'id'], (value) =>
    db.updateTable('oidc_payloads').set({ consumed_at: value('now') }).where('kind', '=', kind).where('id', '=', value('id')).where('consumed_at', 'is', null));

  const toPayload = (row: { payload: string; consumed_at: number | null } | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
  };

  return {
    async upsert(id, payload, expiresIn) {
      await db.executeQuery(upsert({
        id,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        expires_at: typeof expiresIn === 'number' ? clock.now() + expiresIn * 1000 : null,
      }));
      afterWrite();
    },
    async find(id) {
      if (!isStorableText(id)) return undefined;
      return toPayload((await db.executeQuery(findById({ now: clock.now(), id }))).rows[0]);
    },
    async findByUid(uid) {
      if (!isStorableText(uid)) return undefined;
      return toPayload((await db.executeQuery(findByUid({ now: clock.now(), uid }))).rows[0]);
    },
    async findByUserCode() {
      // The device flow is switched off; nothing is ever stored by user code.
      return undefined;
    },
    async consume(id) {
      // oidc-provider finds a code or refresh token, checks it is unconsumed, then consumes it: two
      // concurrent uses would both pass the check. Only the first to mark it here wins; a loser is a
      // reuse and is answered as oidc-provider answers one found already consumed.
      const marked = await db.executeQuery(markConsumed({ now: clock.now(), id }));
      if ((marked.numAffectedRows ?? 0n) > 0n) return;
      await revokeGrantOf(db, kind, id);
      throw new errors.InvalidGrant(`${kind === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);
    },
    async destroy(id) {
      await db.deleteFrom('oidc_payloads').where('kind', '=', kind).where('id', '=', id).execute();
    },
    async revokeByGrantId(grantId) {
      await db.deleteFrom('oidc_payloads').where('kind', '=', kind).where('grant_id', '=', grantId).execute();
    },
  };
}

// What oidc-provider's own revocation of a grant removes: the grant and the tokens and codes issued under it.
const GRANT_ARTIFACT_KINDS = ['AccessToken', 'RefreshToken', 'AuthorizationCode'];

async function revokeGrantOf(db: Db, kind: string, id: string): Promise<void> {
  const row = await db.selectFrom('oidc_payloads').select('grant_id').where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  const grantId = row?.grant_id;
  if (!grantId) return;
  await db
    .deleteFrom('oidc_payloads')
    .where((eb) => eb.or([
      eb.and([eb('kind', 'in', GRANT_ARTIFACT_KINDS), eb('grant_id', '=', grantId)]),
      eb.and([eb('kind', '=', 'Grant'), eb('id', '=', grantId)]),
    ]))
    .execute();
}

function clientAdapter(deps: { db: Db; clock: Clock }): Adapter {
  const findClientMetadata = createClientMetadataFinder(deps.db);
  const refuse = async () => {
    throw new Error('Clients are managed through the management APIs, never through the protocol.');
  };
  return {
    find: findClientMetadata,
    upsert: refuse,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: refuse,
    destroy: refuse,
    revokeByGrantId: async () => {},
  };
}

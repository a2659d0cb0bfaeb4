import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Clock } from '../domain/clock.ts';
import type { StoredOidcPayload } from '../storage/repositories/oidc-payload-repository.ts';
import type { Store } from '../storage/store.ts';
import { createClientMetadataFinder } from './client-metadata.ts';
import { pruneExpiredNowAndThen } from './expired-payloads.ts';
import { createRequestArtifacts, type RequestArtifacts } from './request-artifacts.ts';

interface AdapterDeps {
  store: Store;
  clock: Clock;
  /** Told when a refresh token used concurrently with its own rotation ended its grant (the loser of consume). */
  onRefreshTokenReuse?: (ended: { grantId: string; accountId: string | null; clientId: string | null; clientName: string | null }) => void;
  /** Told when oidc-provider's own revocation deleted a grant: of requests racing to end one grant, only one is told. */
  onGrantDestroyed?: (grantId: string) => void;
}

/**
 * oidc-provider's storage over the `oidc_payloads` repository, one instance per model name. Sessions,
 * grants, codes and tokens survive a restart and are shared by every instance on the database; the
 * repository keeps only digests of their ids. The `Client` model is not stored here: clients are read
 * from the clients table on every lookup.
 */
export function createOidcAdapterFactory(deps: AdapterDeps): { adapterFor: (model: string) => Adapter; requestArtifacts: RequestArtifacts } {
  const afterWrite = pruneExpiredNowAndThen(deps.store, deps.clock);
  const requestArtifacts = createRequestArtifacts({ store: deps.store, clock: deps.clock, afterWrite, endGrantOfReused: (kind, id) => endGrantOfReused(deps, kind, id) });
  return {
    adapterFor: (model) => (model === 'Client' ? clientAdapter(deps) : payloadAdapter(model, deps, afterWrite, requestArtifacts)),
    requestArtifacts,
  };
}

/**
 * oidc-provider finds a code or refresh token, checks it is unconsumed, then consumes it: two concurrent
 * uses would both pass the check. Only the first to mark it wins; a loser is a reuse, and is answered as
 * oidc-provider answers one found already consumed: its grant ends.
 */
async function endGrantOfReused({ store, onRefreshTokenReuse }: AdapterDeps, kind: string, id: string): Promise<errors.InvalidGrant> {
  const ended = await store.repos.oidcPayloads.revokeGrantOf(kind, id);
  if (ended && kind === 'RefreshToken') onRefreshTokenReuse?.(ended);
  return new errors.InvalidGrant(`${kind === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);
}

type Fields = Record<string, unknown> | undefined;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Whose artifact this is: tokens, codes, grants and sessions name the account; an interaction names it in its session or login result. */
function accountOf(payload: AdapterPayload): string | null {
  const session = payload.session as Fields;
  const login = (payload.result as Fields)?.login as Fields;
  return text(payload.accountId) ?? text(session?.accountId) ?? text(login?.accountId);
}

/**
 * An interaction carries the browser's session id (`session.cookie`, the session cookie's value):
 * a credential nothing in Sesame reads back, so it is not stored.
 */
function withoutSessionCookie(kind: string, payload: AdapterPayload): AdapterPayload {
  const session = payload.session as Fields;
  if (kind !== 'Interaction' || !session || !('cookie' in session)) return payload;
  const { cookie: _cookie, ...rest } = session;
  return { ...payload, session: rest };
}

function toAdapterPayload(stored: StoredOidcPayload | undefined): AdapterPayload | undefined {
  if (!stored) return undefined;
  const payload = stored.payload as AdapterPayload;
  return stored.consumedAt === null ? payload : { ...payload, consumed: Math.floor(stored.consumedAt / 1000) };
}

/**
 * oidc-provider saves the sign-in session at the end of every request that reads it, only to slide its
 * expiry. A save that changes nothing but that, by less than a minute, is skipped: one write less per
 * `/auth`, for a stored expiry at most a minute behind the cookie's (docs/performance.md). The session's
 * content as this instance last read or wrote it is remembered per id, so any other change is written.
 */
const SESSION_RESAVE_MIN_SECONDS = 60;
const REMEMBERED_SESSIONS_MAX = 10_000;

function createSessionResaves() {
  const lastSeen = new Map<string, { content: string; exp: number }>();
  // oidc-provider writes a loaded session's keys in another order than it read them.
  const canonical = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(canonical) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, item]) => [key, canonical(item)])) : value;
  const contentOf = (payload: AdapterPayload) => {
    const { exp: _exp, iat: _iat, ...content } = payload;
    return JSON.stringify(canonical(content));
  };
  return {
    remember(id: string, payload: AdapterPayload | undefined): void {
      lastSeen.delete(id);
      if (!payload || typeof payload.exp !== 'number') return;
      if (lastSeen.size >= REMEMBERED_SESSIONS_MAX) lastSeen.delete(lastSeen.keys().next().value!);
      lastSeen.set(id, { content: contentOf(payload), exp: payload.exp });
    },
    onlySlides(id: string, payload: AdapterPayload): boolean {
      const seen = lastSeen.get(id);
      return seen !== undefined && typeof payload.exp === 'number' && payload.exp - seen.exp < SESSION_RESAVE_MIN_SECONDS && seen.content === contentOf(payload);
    },
    forget(id: string): void {
      lastSeen.delete(id);
    },
  };
}

function payloadAdapter(kind: string, deps: AdapterDeps, afterWrite: () => void, request: RequestArtifacts): Adapter {
  const { store, clock, onGrantDestroyed } = deps;
  const payloads = store.repos.oidcPayloads;
  const sessions = kind === 'Session' ? createSessionResaves() : undefined;
  return {
    async upsert(id, payload, expiresIn) {
      if (sessions?.onlySlides(id, payload)) return;
      const artifact = {
        kind,
        id,
        payload: withoutSessionCookie(kind, payload),
        // A grant names itself, so a person's grants can be listed and revoked by id (My account).
        grantId: payload.grantId ?? (kind === 'Grant' ? id : null),
        uid: payload.uid ?? null,
        accountId: accountOf(payload),
        expiresAt: typeof expiresIn === 'number' ? clock.now() + expiresIn * 1000 : null,
      };
      if (request.upsert(artifact)) return;
      await payloads.upsert(artifact);
      sessions?.remember(id, payload);
      afterWrite();
    },
    async find(id) {
      const known = await request.find(kind, id);
      const payload = toAdapterPayload(known ? known.stored : await payloads.find(kind, id, clock.now()));
      sessions?.remember(id, payload);
      return payload;
    },
    async findByUid(uid) {
      const known = request.findByUid(kind, uid);
      return toAdapterPayload(known ? known.stored : await payloads.findByUid(kind, uid, clock.now()));
    },
    async findByUserCode() {
      // The device flow is switched off; nothing is ever stored by user code.
      return undefined;
    },
    async consume(id) {
      if (request.consume(kind, id) || (await payloads.consume(kind, id, clock.now()))) return;
      throw await endGrantOfReused(deps, kind, id);
    },
    async destroy(id) {
      sessions?.forget(id);
      if (request.destroy(kind, id)) return;
      request.deleting(kind, { id });
      if ((await payloads.destroy(kind, id)) && kind === 'Grant') onGrantDestroyed?.(id);
    },
    async revokeByGrantId(grantId) {
      request.deleting(kind, { grantId });
      await payloads.revokeByGrantId(kind, grantId);
    },
  };
}

function clientAdapter(deps: AdapterDeps): Adapter {
  const findClientMetadata = createClientMetadataFinder(deps.store);
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

import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../domain/clock.ts';
import type { ArtifactWithGrantAndSession, OidcArtifact, StoredOidcPayload } from '../storage/repositories/oidc-payload-repository.ts';
import type { Store } from '../storage/store.ts';

// What a token or userinfo request starts from: its first lookup of one also reads the grant and the session.
const FIRST_READS = new Set(['AuthorizationCode', 'RefreshToken', 'AccessToken']);

/** Which of a request's writes wait for its end, by kind; any other goes to the database at once. */
interface BatchedWrites {
  consumes: ReadonlySet<string>;
  upserts: ReadonlySet<string>;
  deletes: ReadonlySet<string>;
}
const none = new Set<string>();
// A code exchange or refresh: the consume of the code or refresh token, and the tokens issued.
const TOKEN_WRITES: BatchedWrites = { consumes: new Set(['AuthorizationCode', 'RefreshToken']), upserts: new Set(['AccessToken', 'RefreshToken']), deletes: none };
// An authorization request, and its resumption after a sign-in: the code, the session (a new id after a
// sign-in: the old one deleted), a grant made from remembered consent, the interaction made or finished.
const AUTHORIZATION_WRITES: BatchedWrites = { consumes: none, upserts: new Set(['AuthorizationCode', 'Session', 'Grant', 'Interaction']), deletes: new Set(['Session', 'Interaction']) };
const TOKEN_GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

function batchedWritesOf(ctx: KoaContextWithOIDC): BatchedWrites | undefined {
  const route = ctx.oidc?.route;
  if (route === 'authorization' || route === 'resume') return AUTHORIZATION_WRITES;
  const grantType = (ctx.oidc?.params as { grant_type?: unknown } | undefined)?.grant_type;
  return route === 'token' && TOKEN_GRANT_TYPES.has(String(grantType)) ? TOKEN_WRITES : undefined;
}

/** What the adapter learns from the request: undefined when it has to ask the database. */
export type KnownArtifact = { stored: StoredOidcPayload | undefined } | undefined;

interface RequestState {
  /** Token and userinfo requests: their first artifact, read with its grant and session. */
  reads: boolean;
  read: { kind: string; id: string; found: ArtifactWithGrantAndSession } | undefined;
  batched: BatchedWrites | undefined;
  consumed: { kind: string; id: string } | undefined;
  written: Map<string, OidcArtifact>;
  deleted: Map<string, { kind: string; id: string }>;
}

const key = (kind: string, id: string) => `${kind} ${id}`;

interface Deps {
  store: Store;
  clock: Clock;
  afterWrite: () => void;
  /** Ends the grant of a code or refresh token whose consume lost (a reuse); returns the error to answer with. */
  endGrantOfReused: (kind: string, id: string) => Promise<errors.InvalidGrant>;
}

/**
 * A protocol request's artifacts, per request (oidc-provider's context). A token or userinfo request's first
 * lookup of a code, refresh or access token reads the grant and the session with it, in one statement, and
 * the grant and session lookups that follow in the same request are answered from that read: a database read
 * of this request, so revocation and consumption are still seen at once. A code exchange, a refresh and an
 * authorization request keep their writes (BatchedWrites) until the request is done, answer their own reads
 * of them, then write them in one statement (one transaction on SQLite) before the response leaves. When a
 * code exchange's or refresh's consume finds the code or token consumed by then (a concurrent use), nothing
 * is written, the grant ends, and the answer becomes invalid_grant.
 * Anything else, and everything outside a provider request, goes to the database as it comes.
 */
export function createRequestArtifacts({ store, clock, afterWrite, endGrantOfReused }: Deps) {
  const payloads = store.repos.oidcPayloads;
  const states = new WeakMap<object, RequestState | null>();

  function current(): RequestState | undefined {
    const ctx = Provider.ctx as KoaContextWithOIDC | undefined;
    if (!ctx) return undefined;
    let state = states.get(ctx);
    if (state === undefined) {
      const route = ctx.oidc?.route;
      const reads = route === 'token' || route === 'userinfo';
      const batched = batchedWritesOf(ctx);
      state = reads || batched ? { reads, read: undefined, batched, consumed: undefined, written: new Map(), deleted: new Map() } : null;
      states.set(ctx, state);
    }
    return state ?? undefined;
  }

  /** Something of this kind was written or deleted in this request: what was read of it may be stale. */
  function forgetRead(state: RequestState, kind: string): void {
    const found = state.read?.found;
    if (!found) return;
    if (kind === 'Grant') found.grant = undefined;
    if (kind === 'Session') found.session = undefined;
    if (kind === state.read!.kind) found.artifact = undefined;
  }

  return {
    async find(kind: string, id: string): Promise<KnownArtifact> {
      const state = current();
      if (!state) return undefined;
      const pending = state.written.get(key(kind, id));
      if (pending) return { stored: { payload: pending.payload, consumedAt: null } };
      if (state.deleted.has(key(kind, id))) return { stored: undefined };
      if (!state.reads) return undefined;
      if (!state.read) {
        if (!FIRST_READS.has(kind)) return undefined;
        state.read = { kind, id, found: await payloads.findWithGrantAndSession(kind, id, clock.now()) };
        return { stored: state.read.found.artifact };
      }
      const { found } = state.read;
      if (kind === state.read.kind && id === state.read.id && found.artifact) {
        const consumed = state.consumed?.kind === kind && state.consumed.id === id;
        return { stored: consumed ? { ...found.artifact, consumedAt: clock.now() } : found.artifact };
      }
      if (kind === 'Grant' && found.grant && found.artifact?.payload.grantId === id) return { stored: found.grant };
      return undefined;
    },

    findByUid(kind: string, uid: string): KnownArtifact {
      const state = current();
      if (!state) return undefined;
      for (const artifact of state.written.values()) {
        if (artifact.kind === kind && artifact.uid === uid) return { stored: { payload: artifact.payload, consumedAt: null } };
      }
      const session = state.read?.found.session;
      return kind === 'Session' && session && session.payload.uid === uid ? { stored: session } : undefined;
    },

    /** True when the write waits for the request's end. */
    upsert(artifact: OidcArtifact): boolean {
      const state = current();
      if (!state) return false;
      forgetRead(state, artifact.kind);
      if (!state.batched?.upserts.has(artifact.kind)) return false;
      state.deleted.delete(key(artifact.kind, artifact.id));
      state.written.set(key(artifact.kind, artifact.id), artifact);
      return true;
    },

    /** True when the consume waits for the request's end (the first one of the request). */
    consume(kind: string, id: string): boolean {
      const state = current();
      if (!state?.batched?.consumes.has(kind) || state.consumed) return false;
      state.consumed = { kind, id };
      return true;
    },

    /** True when the delete waits for the request's end. */
    destroy(kind: string, id: string): boolean {
      const state = current();
      if (!state?.batched?.deletes.has(kind)) return false;
      forgetRead(state, kind);
      state.written.delete(key(kind, id));
      state.deleted.set(key(kind, id), { kind, id });
      return true;
    },

    /** Told before a delete reaches the database: a pending write of what it deletes must not bring it back. */
    deleting(kind: string, match: { id: string } | { grantId: string }): void {
      const state = current();
      if (!state) return;
      forgetRead(state, kind);
      for (const [pendingKey, artifact] of state.written) {
        if (artifact.kind === kind && ('id' in match ? artifact.id === match.id : artifact.grantId === match.grantId)) state.written.delete(pendingKey);
      }
      if ('id' in match && state.consumed?.kind === kind && state.consumed.id === match.id) state.consumed = undefined;
    },

    /** Provider middleware, innermost: writes what the request kept back, before anything outside sees the answer. */
    async writeAtRequestEnd(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
      await next();
      const state = states.get(ctx);
      if (!state || (state.consumed === undefined && state.written.size === 0 && state.deleted.size === 0)) return;
      const { consumed, written, deleted } = state;
      // Whatever the request still writes after this goes to the database at once.
      states.set(ctx, null);
      const wrote = await payloads.writeTogether({ consumed, deleted: [...deleted.values()], written: [...written.values()] }, clock.now());
      for (let i = 0; wrote && i < written.size; i += 1) afterWrite();
      if (wrote || consumed === undefined) return;
      const error = await endGrantOfReused(consumed.kind, consumed.id);
      ctx.body = { error: error.error, error_description: error.error_description };
      ctx.status = error.statusCode;
      ctx.oidc.provider.emit('grant.error', ctx, error);
    },
  };
}

export type RequestArtifacts = ReturnType<typeof createRequestArtifacts>;

import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../domain/clock.ts';
import { secretIsUsable } from '../domain/client-secrets.ts';
import { sha256Hex } from '../domain/digests.ts';
import { constantTimeEqual } from '../security/constant-time.ts';
import type { Store } from '../storage/store.ts';
import type { SesameClientFields, StoredSecretForBridge } from './client-metadata.ts';

// lastUsedAt answers "does anything still use this secret?", a question of minutes: writing it on every
// token request made each /token call one database write more (a commit, on PostgreSQL a WAL flush).
const LAST_USED_RESOLUTION_MS = 60_000;
const REMEMBERED_WRITES_MAX = 10_000;

/**
 * oidc-provider compares a presented client secret with the one `client_secret` it holds. Sesame
 * keeps digests of up to two usable secrets per client (the active one, and during a rotation's grace
 * period the retiring one), so the comparison is replaced: the presented secret, already URL-decoded
 * by oidc-provider as RFC 6749 2.3.1 asks, is digested and checked against every usable digest. The
 * digests were read with the client in this request (client-metadata.ts), so a revoked or rotated
 * secret stops working at the next request.
 */
export function installSecretsBridge(provider: Provider, { store, clock }: { store: Store; clock: Clock }): void {
  const secrets = store.repos.clientSecrets;
  // The secret that authenticated this request's client, noted once /token has issued tokens (DESIGN 5:
  // lastUsedAt moves only then, never on a refused grant).
  const matchedIn = new WeakMap<object, StoredSecretForBridge>();
  // The client comes from the read cache, whose lastUsedAt is the one read before this process's own
  // notes (they are bookkeeping and do not empty the cache): the last note written is remembered here.
  const notedAt = new Map<string, number>();
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: SesameClientFields, presented: string) {
    const now = clock.now();
    const presentedDigest = sha256Hex(presented);
    let matched: StoredSecretForBridge | undefined;
    // Every secret is compared, matched or not, so the time taken does not tell which one matched.
    for (const secret of this.sesame_secrets ?? []) {
      const usable = secretIsUsable(secret, now);
      if (constantTimeEqual(presentedDigest, secret.digest) && usable) matched ??= secret;
    }
    if (matched === undefined) return false;
    const ctx = Provider.ctx;
    if (ctx) matchedIn.set(ctx, matched);
    return true;
  };
  provider.use(async function noteSecretUsedOnIssue(ctx: KoaContextWithOIDC, next: () => Promise<unknown>) {
    await next();
    const matched = matchedIn.get(ctx);
    if (matched === undefined || ctx.status !== 200) return;
    const now = clock.now();
    const lastUsedAt = Math.max(matched.lastUsedAt ?? -Infinity, notedAt.get(matched.secretId) ?? -Infinity);
    if (now - lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    await secrets.noteUsed(matched.secretId, now);
    notedAt.delete(matched.secretId);
    if (notedAt.size >= REMEMBERED_WRITES_MAX) notedAt.delete(notedAt.keys().next().value!);
    notedAt.set(matched.secretId, now);
  });
}

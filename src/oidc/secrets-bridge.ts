import type { Provider } from 'oidc-provider';
import type { Clock } from '../domain/clock.ts';
import { secretIsUsable } from '../domain/client-secrets.ts';
import { digestsEqual, sha256Hex } from '../domain/digests.ts';
import type { Db } from '../storage/database.ts';

// lastUsedAt answers "does anything still use this secret?", a question of minutes: writing it on every
// token request made each /token call one database write more (a commit, on PostgreSQL a WAL flush).
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * oidc-provider compares a presented client secret with the one `client_secret` it holds. Sesame
 * keeps digests of up to two usable secrets per client (the active one, and during a rotation's grace
 * period the retiring one), so the comparison is replaced: the presented secret, already URL-decoded
 * by oidc-provider as RFC 6749 2.3.1 asks, is digested and checked against every usable digest.
 */
export function installSecretsBridge(provider: Provider, { db, clock }: { db: Db; clock: Clock }): void {
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: { clientId: string }, presented: string) {
    const now = clock.now();
    const rows = await db
      .selectFrom('client_secrets')
      .select(['secret_id', 'digest', 'status', 'expires_at', 'last_used_at'])
      .where('client_id', '=', this.clientId)
      .where('status', 'in', ['active', 'retiring'])
      .execute();
    const presentedDigest = sha256Hex(presented);
    let matched: { secretId: string; lastUsedAt: number | null } | undefined;
    // Every row is compared, matched or not, so the time taken does not tell which one matched.
    for (const row of rows) {
      const usable = secretIsUsable({ status: row.status, expiresAt: row.expires_at }, now);
      if (digestsEqual(row.digest, presentedDigest) && usable) matched ??= { secretId: row.secret_id, lastUsedAt: row.last_used_at };
    }
    if (matched === undefined) return false;
    if (matched.lastUsedAt === null || now - matched.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      await db.updateTable('client_secrets').set({ last_used_at: now }).where('secret_id', '=', matched.secretId).execute();
    }
    return true;
  };
}

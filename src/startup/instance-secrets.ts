import type { InstanceSecrets } from '../domain/instance-secrets.ts';
import { randomBase62 } from '../domain/ids.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import type { Store } from '../storage/store.ts';

export type { InstanceSecrets };

/**
 * Production takes its secrets from the environment. Elsewhere, a missing one is generated
 * once and kept in the database, so restarts and every instance on the database agree.
 */
export async function resolveInstanceSecrets(config: Config, store: Store, clock: Clock): Promise<InstanceSecrets> {
  const settings = store.repos.instanceSettings;
  const generated: string[] = [];
  async function storedOrGenerated(name: string): Promise<string> {
    // Two instances starting at once both offer a value; the first one stored is the one both use.
    if (await settings.insertIfAbsent(name, randomBase62(48), clock.now())) generated.push(name);
    const value = await settings.find(name);
    if (value === undefined) throw new Error(`instance setting ${name} vanished right after it was stored`);
    return value;
  }
  const keyEncryptionSecret = config.keyEncryptionSecret ?? (await storedOrGenerated('OIDC_KEY_ENCRYPTION_SECRET'));
  const cookieKeys = config.cookieKeys ?? [await storedOrGenerated('OIDC_COOKIE_KEYS')];
  return { keyEncryptionSecret, cookieKeys, generated };
}

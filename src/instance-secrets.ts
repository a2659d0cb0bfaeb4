import { randomBase62 } from './domain/ids.ts';
import type { Config } from './config.ts';
import type { Clock } from './domain/clock.ts';
import type { Db } from './storage/database.ts';

export interface InstanceSecrets {
  keyEncryptionSecret: string;
  cookieKeys: string[];
  /** Names of the secrets generated on this start (outside production only), for a warning. */
  generated: string[];
}

/**
 * Production takes its secrets from the environment. Elsewhere, a missing one is generated
 * once and kept in the database, so restarts and every instance on the database agree.
 */
export async function resolveInstanceSecrets(config: Config, db: Db, clock: Clock): Promise<InstanceSecrets> {
  const generated: string[] = [];
  async function storedOrGenerated(name: string): Promise<string> {
    const candidate = randomBase62(48);
    const inserted = await db
      .insertInto('instance_settings')
      .values({ name, value: candidate, created_at: clock.now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) generated.push(name);
    const row = await db.selectFrom('instance_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  }
  const keyEncryptionSecret = config.keyEncryptionSecret ?? (await storedOrGenerated('OIDC_KEY_ENCRYPTION_SECRET'));
  const cookieKeys = config.cookieKeys ?? [await storedOrGenerated('OIDC_COOKIE_KEYS')];
  return { keyEncryptionSecret, cookieKeys, generated };
}

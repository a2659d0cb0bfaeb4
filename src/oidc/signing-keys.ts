import { exportJWK, generateKeyPair } from 'jose';
import { cliActor, systemActor, type Actor } from '../domain/actor.ts';
import type { Clock } from '../domain/clock.ts';
import { randomBase62 } from '../domain/ids.ts';
import { writeAudit } from '../services/audit.ts';
import type { Db } from '../storage/database.ts';
import type { SigningKeyRow } from '../storage/schema.ts';
import { decryptPrivateJwk, encryptPrivateJwk } from './private-key-encryption.ts';
import { RETIRED_KEY_PUBLICATION_SECONDS } from './token-lifetimes.ts';

/** RS256 signs ID tokens by default; ES256 is offered beside it. */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

export interface SigningKeyInfo {
  kid: string;
  alg: SigningAlg;
  status: 'active' | 'retired';
  createdAt: number;
  retiredAt: number | null;
  /** Until when the public key stays in /jwks; null while the key is active. */
  publishedUntil: number | null;
}

export interface SigningJwks {
  keys: Record<string, unknown>[];
  /** Changes whenever the published key set changes; lets a running provider notice a rotation. */
  fingerprint: string;
}

const publishedUntil = (row: Pick<SigningKeyRow, 'retired_at'>) =>
  row.retired_at === null ? null : row.retired_at + RETIRED_KEY_PUBLICATION_SECONDS * 1000;

function toInfo(row: SigningKeyRow): SigningKeyInfo {
  return { kid: row.kid, alg: row.alg, status: row.status, createdAt: row.created_at, retiredAt: row.retired_at, publishedUntil: publishedUntil(row) };
}

async function newKeyRow(alg: SigningAlg, now: number, keyEncryptionSecret: string): Promise<SigningKeyRow> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-${new Date(now).toISOString().slice(0, 10)}-${randomBase62(12)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return {
    kid,
    alg,
    public_jwk: JSON.stringify(publicJwk),
    private_jwk_encrypted: encryptPrivateJwk(privateJwk, kid, keyEncryptionSecret),
    status: 'active',
    created_at: now,
    retired_at: null,
  };
}

/** Creates an active key for every algorithm that has none (first start); returns the new keys. */
export async function ensureSigningKeys(db: Db, clock: Clock, keyEncryptionSecret: string): Promise<SigningKeyInfo[]> {
  const active = await db.selectFrom('signing_keys').select('alg').where('status', '=', 'active').execute();
  const missing = SIGNING_ALGS.filter((alg) => !active.some((row) => row.alg === alg));
  if (missing.length === 0) return [];
  const now = clock.now();
  const rows = await Promise.all(missing.map((alg) => newKeyRow(alg, now, keyEncryptionSecret)));
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('signing_keys').values(rows).execute();
    for (const row of rows) {
      await writeAudit(trx, clock, systemActor, { action: 'signing_key.create', targetType: 'signing_key', targetId: row.kid, after: { alg: row.alg, status: row.status } });
    }
  });
  return rows.map(toInfo);
}

/**
 * Adds a new key per algorithm, which signs from now on, and retires the keys that signed until now.
 * A retired key stays published until everything it signed has expired.
 */
export async function rotateSigningKeys(
  db: Db,
  clock: Clock,
  keyEncryptionSecret: string,
  actor: Actor = cliActor,
): Promise<{ created: SigningKeyInfo[]; retired: SigningKeyInfo[] }> {
  const now = clock.now();
  const created = await Promise.all(SIGNING_ALGS.map((alg) => newKeyRow(alg, now, keyEncryptionSecret)));
  const retired = await db.transaction().execute(async (trx) => {
    const previous = await trx.selectFrom('signing_keys').selectAll().where('status', '=', 'active').execute();
    await trx.updateTable('signing_keys').set({ status: 'retired', retired_at: now }).where('status', '=', 'active').execute();
    await trx.insertInto('signing_keys').values(created).execute();
    await writeAudit(trx, clock, actor, {
      action: 'signing_key.rotate',
      targetType: 'signing_key',
      targetId: created.map((row) => row.kid).join(' '),
      before: { active: previous.map((row) => row.kid) },
      after: { active: created.map((row) => row.kid), retired: previous.map((row) => row.kid) },
    });
    return previous.map((row) => ({ ...row, status: 'retired' as const, retired_at: now }));
  });
  return { created: created.map(toInfo), retired: retired.map(toInfo) };
}

/** Every stored key, newest first, with when a retired one stops being published. */
export async function listSigningKeys(db: Db): Promise<SigningKeyInfo[]> {
  const rows = await db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid').execute();
  return rows.map(toInfo);
}

async function publishedKeyRows(db: Db, now: number): Promise<SigningKeyRow[]> {
  const rows = await db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid').execute();
  return rows
    .filter((row) => row.status === 'active' || (publishedUntil(row) ?? 0) > now)
    .sort((a, b) => Number(a.status !== 'active') - Number(b.status !== 'active'));
}

const fingerprintOf = (rows: SigningKeyRow[]) => rows.map((row) => `${row.kid}:${row.status}`).join(',');

/** Identifies the published key set without decrypting anything: cheap enough to poll. */
export async function signingKeysFingerprint(db: Db, clock: Clock): Promise<string> {
  return fingerprintOf(await publishedKeyRows(db, clock.now()));
}

/**
 * The private keys the provider signs and publishes with: per algorithm the newest active key
 * first (oidc-provider signs with the first key that fits), then retired keys still published.
 */
export async function loadSigningJwks(db: Db, clock: Clock, keyEncryptionSecret: string): Promise<SigningJwks> {
  const published = await publishedKeyRows(db, clock.now());
  if (!SIGNING_ALGS.every((alg) => published.some((row) => row.alg === alg && row.status === 'active'))) {
    throw new Error('No active signing key for every algorithm; run prepareInstance (start-up) or `sesame keys rotate` first.');
  }
  return {
    keys: published.map((row) => decryptPrivateJwk(row.private_jwk_encrypted, row.kid, keyEncryptionSecret)),
    fingerprint: fingerprintOf(published),
  };
}

import { exportJWK, generateKeyPair } from 'jose';
import { cliActor, systemActor, type Actor } from '../domain/actor.ts';
import type { Clock } from '../domain/clock.ts';
import { randomBase62 } from '../domain/ids.ts';
import { writeAudit } from '../services/shared/audit.ts';
import type { SigningKey } from '../storage/repositories/signing-key-repository.ts';
import type { Store } from '../storage/store.ts';
import { decryptPrivateJwk, encryptPrivateJwk } from './private-key-encryption.ts';
import { RETIRED_KEY_PUBLICATION_SECONDS } from './token-lifetimes.ts';

/** RS256 signs ID tokens by default; ES256 is offered beside it. */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/**
 * How long relying parties may go on verifying with a /jwks they fetched before a rotation. jose's
 * remote key set (behind openid-client and most Node libraries) re-fetches on an unknown kid at most
 * every 30 s; 60 s covers that and a cache in front of /jwks holding it as long again.
 */
export const JWKS_CACHE_ALLOWANCE_SECONDS = 60;

/**
 * Publish first, sign later: a rotated key starts signing this long after the rotation. Every instance
 * re-reads the keys within `keyRefreshSeconds` (SIGNING_KEY_REFRESH_SECONDS), so by then each has
 * published it for at least JWKS_CACHE_ALLOWANCE_SECONDS before any instance signs with it.
 */
export const signingDelaySeconds = (keyRefreshSeconds: number) => keyRefreshSeconds + JWKS_CACHE_ALLOWANCE_SECONDS;

export interface SigningKeyInfo {
  kid: string;
  alg: SigningAlg;
  status: 'active' | 'retired';
  createdAt: number;
  /** When the key starts (or started) signing; published in /jwks from its creation on. */
  signsFrom: number;
  /** When a newer key takes over the signing; null while the key is the newest. */
  retiredAt: number | null;
  /** Until when the public key stays in /jwks; null while the key is the newest. */
  publishedUntil: number | null;
}

export interface SigningJwks {
  keys: Record<string, unknown>[];
  /** Changes whenever the published key set, or the key that signs, changes: lets a running provider notice. */
  fingerprint: string;
}

const publishedUntil = (key: Pick<SigningKey, 'retiredAt'>) =>
  key.retiredAt === null ? null : key.retiredAt + RETIRED_KEY_PUBLICATION_SECONDS * 1000;

function toInfo(key: SigningKey): SigningKeyInfo {
  return { kid: key.kid, alg: key.alg, status: key.status, createdAt: key.createdAt, signsFrom: key.signsFrom, retiredAt: key.retiredAt, publishedUntil: publishedUntil(key) };
}

async function newKey(alg: SigningAlg, now: number, signsFrom: number, keyEncryptionSecret: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-${new Date(now).toISOString().slice(0, 10)}-${randomBase62(12)}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return {
    kid,
    alg,
    publicJwk: JSON.stringify(publicJwk),
    privateJwkEncrypted: encryptPrivateJwk(privateJwk, kid, keyEncryptionSecret),
    status: 'active',
    createdAt: now,
    signsFrom,
    retiredAt: null,
  };
}

/**
 * Creates an active key for every algorithm that has none (first start); returns the new keys. They
 * sign at once: no relying party can be verifying that algorithm with an older key set.
 */
export async function ensureSigningKeys(store: Store, clock: Clock, keyEncryptionSecret: string): Promise<SigningKeyInfo[]> {
  const active = await store.repos.signingKeys.listActive();
  const missing = SIGNING_ALGS.filter((alg) => !active.some((key) => key.alg === alg));
  if (missing.length === 0) return [];
  const now = clock.now();
  const keys = await Promise.all(missing.map((alg) => newKey(alg, now, now, keyEncryptionSecret)));
  await store.transaction(async (repos) => {
    await repos.signingKeys.insert(keys);
    for (const key of keys) {
      await writeAudit(repos, clock, systemActor, { action: 'signing_key.create', targetType: 'signing_key', targetId: key.kid, after: { alg: key.alg, status: key.status } });
    }
  });
  return keys.map(toInfo);
}

/**
 * Adds a new key per algorithm and retires the keys that sign now. The new keys are published at once
 * and sign from `signingDelaySeconds(keyRefreshSeconds)` on; the retired ones sign until then and stay
 * published until everything they signed has expired. A key for an algorithm no key signs yet (a
 * rotation on a fresh database) signs at once.
 */
export async function rotateSigningKeys(
  store: Store,
  clock: Clock,
  keyEncryptionSecret: string,
  options: { keyRefreshSeconds: number; actor?: Actor },
): Promise<{ created: SigningKeyInfo[]; retired: SigningKeyInfo[] }> {
  const now = clock.now();
  const takeOverAt = now + signingDelaySeconds(options.keyRefreshSeconds) * 1000;
  const generated = await Promise.all(SIGNING_ALGS.map((alg) => newKey(alg, now, takeOverAt, keyEncryptionSecret)));
  return store.transaction(async (repos) => {
    const previous = await repos.signingKeys.listActive();
    const created = generated.map((key) => ({ ...key, signsFrom: previous.some((old) => old.alg === key.alg) ? takeOverAt : now }));
    await repos.signingKeys.retireActive(takeOverAt);
    await repos.signingKeys.insert(created);
    await writeAudit(repos, clock, options.actor ?? cliActor, {
      action: 'signing_key.rotate',
      targetType: 'signing_key',
      targetId: created.map((key) => key.kid).join(' '),
      before: { active: previous.map((key) => key.kid) },
      after: { active: created.map((key) => key.kid), retired: previous.map((key) => key.kid), signsFrom: Object.fromEntries(created.map((key) => [key.kid, key.signsFrom])) },
    });
    const retired = previous.map((key) => ({ ...key, status: 'retired' as const, retiredAt: takeOverAt }));
    return { created: created.map(toInfo), retired: retired.map(toInfo) };
  });
}

/** Every stored key, newest first, with when it signs and when a retired one stops being published. */
export async function listSigningKeys(store: Store): Promise<SigningKeyInfo[]> {
  return (await store.repos.signingKeys.list()).map(toInfo);
}

interface PublishedKeys {
  /** Per algorithm, the key that signs now: the one that started signing last. */
  signing: SigningKey[];
  /** Every key in /jwks, the signing ones first (oidc-provider signs with the first key that fits). */
  published: SigningKey[];
}

function publishedKeys(keys: SigningKey[], now: number): PublishedKeys {
  const published = keys.filter((key) => key.status === 'active' || (publishedUntil(key) ?? 0) > now);
  // Of two keys that started signing in the same millisecond, the one not replaced takes it.
  const later = (a: SigningKey, b: SigningKey) => (b.signsFrom > a.signsFrom || (b.signsFrom === a.signsFrom && a.status === 'retired' && b.status === 'active') ? b : a);
  const signing = SIGNING_ALGS.flatMap((alg) => {
    const started = published.filter((key) => key.alg === alg && key.signsFrom <= now);
    return started.length === 0 ? [] : [started.reduce(later)];
  });
  return { signing, published: [...signing, ...published.filter((key) => !signing.includes(key))] };
}

const fingerprintOf = ({ signing, published }: PublishedKeys) =>
  published.map((key) => `${key.kid}:${signing.includes(key) ? 'signs' : 'published'}`).join(',');

/** Identifies the published key set and the keys that sign, without decrypting anything: cheap enough to poll. */
export async function signingKeysFingerprint(store: Store, clock: Clock): Promise<string> {
  return fingerprintOf(publishedKeys(await store.repos.signingKeys.list(), clock.now()));
}

/**
 * The private keys the provider signs and publishes with: per algorithm the key that signs now first,
 * then every other published key (newer ones waiting to sign, retired ones still verifying).
 */
export async function loadSigningJwks(store: Store, clock: Clock, keyEncryptionSecret: string): Promise<SigningJwks> {
  const keys = publishedKeys(await store.repos.signingKeys.list(), clock.now());
  if (keys.signing.length !== SIGNING_ALGS.length) {
    throw new Error('No signing key for every algorithm; run prepareInstance (start-up) or `sesame keys rotate` first.');
  }
  return {
    keys: keys.published.map((key) => decryptPrivateJwk(key.privateJwkEncrypted, key.kid, keyEncryptionSecret)),
    fingerprint: fingerprintOf(keys),
  };
}

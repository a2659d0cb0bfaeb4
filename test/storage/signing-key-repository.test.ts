import { describe, expect, it } from 'vitest';
import type { SigningKey } from '../../src/storage/repositories/signing-key-repository.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const T0 = Date.UTC(2026, 10, 26, 12);

const key = (kid: string, alg: SigningKey['alg'], createdAt: number, signsFrom = createdAt): SigningKey => ({
  kid,
  alg,
  publicJwk: JSON.stringify({ kid, alg, kty: alg === 'RS256' ? 'RSA' : 'EC' }),
  privateJwkEncrypted: `v1.iv-${kid}.ciphertext.tag`,
  status: 'active',
  createdAt,
  signsFrom,
  retiredAt: null,
});

describe.each(TEST_ENGINES)('signing_keys repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

  it('stores keys as given and lists them newest first', async () => {
    expect(await suite.store.repos.signingKeys.list()).toEqual([]);
    const first = [key('rs-1', 'RS256', T0), key('es-1', 'ES256', T0)];
    await suite.store.repos.signingKeys.insert(first);
    await suite.store.repos.signingKeys.insert([]);
    expect(await suite.store.repos.signingKeys.list()).toEqual([first[1], first[0]]);
    expect(await suite.store.repos.signingKeys.listActive()).toEqual([first[1], first[0]]);
  });

  it('retires the active keys as of their successors\' signing time, in one transaction with the new keys', async () => {
    const takeOverAt = T0 + 1000 + 90_000;
    const next = [key('rs-2', 'RS256', T0 + 1000, takeOverAt), key('es-2', 'ES256', T0 + 1000, takeOverAt)];
    await expect(suite.store.transaction(async (repos) => {
      await repos.signingKeys.retireActive(takeOverAt);
      await repos.signingKeys.insert(next);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect((await suite.store.repos.signingKeys.listActive()).map((k) => k.kid)).toEqual(['es-1', 'rs-1']);

    await suite.store.transaction(async (repos) => {
      await repos.signingKeys.retireActive(takeOverAt);
      await repos.signingKeys.insert(next);
    });
    expect(await suite.store.repos.signingKeys.listActive()).toEqual([next[1], next[0]]);
    const all = await suite.store.repos.signingKeys.list();
    expect(all.map((k) => [k.kid, k.status, k.signsFrom, k.retiredAt])).toEqual([
      ['es-2', 'active', takeOverAt, null],
      ['rs-2', 'active', takeOverAt, null],
      ['es-1', 'retired', T0, takeOverAt],
      ['rs-1', 'retired', T0, takeOverAt],
    ]);
  });
});

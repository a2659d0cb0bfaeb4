import { describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

describe.each(TEST_ENGINES)('instance settings repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

  it('stores a value under a new name once and keeps the first value', async () => {
    expect(await suite.store.repos.instanceSettings.find('FIRST')).toBeUndefined();
    expect(await suite.store.repos.instanceSettings.insertIfAbsent('FIRST', 'one', 1_000)).toBe(true);
    expect(await suite.store.repos.instanceSettings.insertIfAbsent('FIRST', 'two', 2_000)).toBe(false);
    expect(await suite.store.repos.instanceSettings.find('FIRST')).toBe('one');
    expect(await suite.store.repos.instanceSettings.find('first')).toBeUndefined();
  });

  it('lets exactly one of several instances starting at once store its value, and all read that one', async () => {
    const offers = ['a', 'b', 'c', 'd', 'e'];
    const stored = await Promise.all(offers.map((value) => suite.store.transaction((repos) => repos.instanceSettings.insertIfAbsent('RACED', value, 3_000))));
    expect(stored.filter(Boolean)).toHaveLength(1);
    expect(await suite.store.repos.instanceSettings.find('RACED')).toBe(offers[stored.indexOf(true)]);
  });

  it('writes nothing when the transaction it wrote in rolls back', async () => {
    await expect(
      suite.store.transaction(async (repos) => {
        await repos.instanceSettings.insertIfAbsent('ROLLED_BACK', 'value', 4_000);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await suite.store.repos.instanceSettings.find('ROLLED_BACK')).toBeUndefined();
  });
});

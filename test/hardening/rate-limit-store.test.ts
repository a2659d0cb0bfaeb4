import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/rate-limit/memory-store.ts';
import type { LimitRule, RateLimitStore } from '../../src/rate-limit/rate-limit-store.ts';
import { createRedisStore } from '../../src/rate-limit/redis-store.ts';
import { newRedisClient, redisReachable } from './helpers/redis.ts';

const redisUp = await redisReachable();
const clients: Redis[] = [];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit()));
});

interface StoreKind {
  name: string;
  available: boolean;
  make(): RateLimitStore;
}

const kinds: StoreKind[] = [
  { name: 'memory', available: true, make: () => createMemoryStore() },
  {
    name: 'redis',
    available: redisUp,
    make: () => {
      const client = newRedisClient();
      clients.push(client);
      return createRedisStore(client);
    },
  },
];

const rule = (limit: number, windowMs = 60_000): LimitRule => ({ key: `test:rl:${randomUUID()}`, limit, windowMs });

describe.each(kinds)('rate limit store: $name', (kind) => {
  const test = it.skipIf(!kind.available);

  test('consume allows up to the limit, then refuses with the time left in the window', async () => {
    const store = kind.make();
    const limited = rule(3, 60_000);
    for (let i = 0; i < 3; i += 1) expect(await store.consume([limited])).toEqual({ outcome: 'allowed' });
    const refused = await store.consume([limited]);
    expect(refused.outcome).toBe('refused');
    if (refused.outcome !== 'refused') return;
    expect(refused.ruleIndex).toBe(0);
    expect(refused.retryAfterMs).toBeGreaterThan(55_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  test('50 parallel consumes of one key are held exactly to the limit', async () => {
    const store = kind.make();
    const limited = rule(10);
    const verdicts = await Promise.all(Array.from({ length: 50 }, () => store.consume([limited])));
    expect(verdicts.filter((v) => v.outcome === 'allowed')).toHaveLength(10);
    expect(verdicts.filter((v) => v.outcome === 'refused')).toHaveLength(40);
  });

  test('a refusal by one rule counts nothing on the others', async () => {
    const store = kind.make();
    const tight = rule(1);
    const loose = rule(2);
    expect((await store.consume([tight, loose])).outcome).toBe('allowed');
    const refused = await store.consume([loose, tight]);
    expect(refused).toMatchObject({ outcome: 'refused', ruleIndex: 1 });
    // loose was counted once only, so it still has one place left.
    expect((await store.consume([loose])).outcome).toBe('allowed');
    expect((await store.consume([loose])).outcome).toBe('refused');
  });

  test('checked rules refuse without being counted; record counts regardless', async () => {
    const store = kind.make();
    const counted = rule(5);
    const watched = rule(2);
    for (let i = 0; i < 3; i += 1) expect((await store.consume([counted], [watched])).outcome).toBe('allowed');
    await store.record([watched]);
    await store.record([watched]);
    await store.record([watched]);
    expect(await store.consume([counted], [watched])).toMatchObject({ outcome: 'refused', ruleIndex: 1 });
    // counted stopped at 3: two places left once the watched rule no longer applies.
    expect((await store.consume([counted])).outcome).toBe('allowed');
    expect((await store.consume([counted])).outcome).toBe('allowed');
    expect((await store.consume([counted])).outcome).toBe('refused');
  });

  test('the window ends and the count starts again', async () => {
    const store = kind.make();
    const brief = rule(1, 300);
    expect((await store.consume([brief])).outcome).toBe('allowed');
    expect((await store.consume([brief])).outcome).toBe('refused');
    await sleep(350);
    expect((await store.consume([brief])).outcome).toBe('allowed');
  });

  test('50 parallel reservations: the limit get places, the rest are told to wait, none slips past', async () => {
    const store = kind.make();
    const limited = rule(5);
    const ids = Array.from({ length: 50 }, () => randomUUID());
    const verdicts = await Promise.all(ids.map((id) => store.reserve([limited], id, 30_000)));
    const placed = ids.filter((_, i) => verdicts[i]?.outcome === 'allowed');
    expect(placed).toHaveLength(5);
    expect(verdicts.filter((v) => v.outcome === 'busy')).toHaveLength(45);
    await Promise.all(placed.map((id) => store.settle([limited], id, { failed: true, clearKeys: [] })));
    const after = await store.reserve([limited], randomUUID(), 30_000);
    expect(after.outcome).toBe('refused');
  });

  test('a success settles without counting, and frees its place', async () => {
    const store = kind.make();
    const limited = rule(1);
    expect((await store.reserve([limited], 'a', 30_000)).outcome).toBe('allowed');
    expect((await store.reserve([limited], 'b', 30_000)).outcome).toBe('busy');
    await store.settle([limited], 'a', { failed: false, clearKeys: [] });
    expect((await store.reserve([limited], 'b', 30_000)).outcome).toBe('allowed');
    await store.settle([limited], 'b', { failed: true, clearKeys: [] });
    expect((await store.reserve([limited], 'c', 30_000)).outcome).toBe('refused');
  });

  test('clearing a key on success forgets its failures, and only that key', async () => {
    const store = kind.make();
    const cleared = rule(2);
    const kept = rule(2);
    await store.reserve([cleared, kept], 'a', 30_000);
    await store.settle([cleared, kept], 'a', { failed: true, clearKeys: [] });
    await store.reserve([cleared, kept], 'b', 30_000);
    await store.settle([cleared, kept], 'b', { failed: false, clearKeys: [cleared.key] });
    expect((await store.consume([cleared])).outcome).toBe('allowed');
    expect((await store.consume([cleared])).outcome).toBe('allowed');
    expect((await store.consume([cleared])).outcome).toBe('refused');
    expect((await store.consume([kept])).outcome).toBe('allowed');
    expect((await store.consume([kept])).outcome).toBe('refused');
  });

  test('a hold never settled (its process died) lapses by itself', async () => {
    const store = kind.make();
    const limited = rule(1);
    expect((await store.reserve([limited], 'lost', 200)).outcome).toBe('allowed');
    expect((await store.reserve([limited], 'next', 200)).outcome).toBe('busy');
    await sleep(250);
    expect((await store.reserve([limited], 'next', 200)).outcome).toBe('allowed');
  });

  test('peek reads a live count without counting; settled failures show in it until the window ends', async () => {
    const store = kind.make();
    const counted = rule(5, 200);
    expect(await store.peek(counted.key)).toBe(0);
    await store.settle([counted], 'a', { failed: true, clearKeys: [] });
    await store.settle([counted], 'b', { failed: true, clearKeys: [] });
    expect(await store.peek(counted.key)).toBe(2);
    expect(await store.peek(counted.key)).toBe(2);
    await sleep(250);
    expect(await store.peek(counted.key)).toBe(0);
  });

  test('remember marks a key for a while; marking again renews it', async () => {
    const store = kind.make();
    const { key } = rule(1);
    await store.remember(key, 300);
    expect(await store.peek(key)).toBe(1);
    await sleep(200);
    await store.remember(key, 300);
    await sleep(200);
    expect(await store.peek(key)).toBe(1);
    await sleep(200);
    expect(await store.peek(key)).toBe(0);
  });
});

describe.skipIf(!redisUp)('rate limit store: two Redis connections (two instances)', () => {
  it('share one count, so parallel hits through both are held exactly to the limit', async () => {
    const first = createRedisStore(newRedisClientTracked());
    const second = createRedisStore(newRedisClientTracked());
    const limited = rule(7);
    const verdicts = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).consume([limited])));
    expect(verdicts.filter((v) => v.outcome === 'allowed')).toHaveLength(7);
  });

  it('run scripts again after the server forgets them', async () => {
    const client = newRedisClientTracked();
    const store = createRedisStore(client);
    await client.script('FLUSH');
    expect((await store.consume([rule(1)])).outcome).toBe('allowed');
  });
});

describe('rate limit store: memory', () => {
  it('expires counters by its clock, and empties on close', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ now: () => now });
    const limited = rule(1, 1_000);
    await store.consume([limited]);
    expect((await store.consume([limited])).outcome).toBe('refused');
    now += 1_001;
    expect((await store.consume([limited])).outcome).toBe('allowed');
    await store.close();
    expect(store.size()).toBe(0);
  });
});

function newRedisClientTracked(): Redis {
  const client = newRedisClient();
  clients.push(client);
  return client;
}

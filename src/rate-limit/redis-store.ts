import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LimitRule, RateLimitStore, Verdict } from './rate-limit-store.ts';

// Each script checks and counts all its rules in one step, so instances sharing the Redis
// cannot race past a limit. Times come from Redis (TIME) so instances' clocks need not agree.

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: counter per rule, counted ones first. ARGV: how many are counted, then limit, windowMs per rule.
const CONSUME = `
local wait, refusedBy = -1, 0
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count >= tonumber(ARGV[2 * i]) then
    local ttl = redis.call('PTTL', KEYS[i])
    if ttl > wait then wait, refusedBy = ttl, i end
  end
end
if refusedBy > 0 then return {'refused', wait, refusedBy} end
for i = 1, tonumber(ARGV[1]) do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 or redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1]) end
end
return {'allowed', 0, 0}`;

// KEYS: counter per rule. ARGV: windowMs per rule.
const RECORD = `for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 or redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[i]) end
end
return 0`;

// KEYS: counter, holds (sorted set of attempt ids by expiry) per rule. ARGV: attemptId, holdMs, limit per rule.
const RESERVE = `${NOW}
local rules = #KEYS / 2
local wait, refusedBy, busy = -1, 0, false
for i = 1, rules do
  local counter, held = KEYS[2 * i - 1], KEYS[2 * i]
  local limit = tonumber(ARGV[2 + i])
  redis.call('ZREMRANGEBYSCORE', held, '-inf', now)
  local count = tonumber(redis.call('GET', counter) or '0')
  if count >= limit then
    local ttl = redis.call('PTTL', counter)
    if ttl > wait then wait, refusedBy = ttl, i end
  elseif count + redis.call('ZCARD', held) >= limit then
    busy = true
  end
end
if refusedBy > 0 then return {'refused', wait, refusedBy} end
if busy then return {'busy', 0, 0} end
local holdMs = tonumber(ARGV[2])
for i = 1, rules do
  redis.call('ZADD', KEYS[2 * i], now + holdMs, ARGV[1])
  redis.call('PEXPIRE', KEYS[2 * i], holdMs)
end
return {'allowed', 0, 0}`;

// KEYS: counter, holds per rule. ARGV: attemptId, failed (1|0), then windowMs, clear (1|0) per rule.
const SETTLE = `for i = 1, #KEYS / 2 do
  local counter, held = KEYS[2 * i - 1], KEYS[2 * i]
  redis.call('ZREM', held, ARGV[1])
  if ARGV[2] == '1' then
    local count = redis.call('INCR', counter)
    if count == 1 or redis.call('PTTL', counter) < 0 then redis.call('PEXPIRE', counter, ARGV[1 + 2 * i]) end
  elseif ARGV[2 + 2 * i] == '1' then
    redis.call('DEL', counter)
  end
end
return 0`;

const heldKey = (rule: LimitRule) => `${rule.key}:held`;

function toVerdict(reply: unknown): Verdict {
  const [outcome, wait, ruleNumber] = reply as [string, number, number];
  if (outcome === 'refused') return { outcome, retryAfterMs: Math.max(0, Number(wait)), ruleIndex: Number(ruleNumber) - 1 };
  if (outcome === 'busy') return { outcome };
  return { outcome: 'allowed' };
}

/** Runs a script by digest, sending its text only the first time a server has not seen it. */
function scriptRunner(redis: Redis, source: string) {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (keys: string[], args: (string | number)[]): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return redis.eval(source, keys.length, ...keys, ...args);
    }
  };
}

/** The shared store: counters in Redis, so every instance on it is held to the same limits. */
export function createRedisStore(redis: Redis): RateLimitStore {
  const consume = scriptRunner(redis, CONSUME);
  const record = scriptRunner(redis, RECORD);
  const reserve = scriptRunner(redis, RESERVE);
  const settle = scriptRunner(redis, SETTLE);

  return {
    async consume(counted, checked = []) {
      const rules = [...counted, ...checked];
      if (rules.length === 0) return { outcome: 'allowed' };
      return toVerdict(await consume(rules.map((rule) => rule.key), [counted.length, ...rules.flatMap((rule) => [rule.limit, rule.windowMs])]));
    },

    async record(rules) {
      if (rules.length === 0) return;
      await record(rules.map((rule) => rule.key), rules.map((rule) => rule.windowMs));
    },

    async reserve(rules, attemptId, holdMs) {
      if (rules.length === 0) return { outcome: 'allowed' };
      const keys = rules.flatMap((rule) => [rule.key, heldKey(rule)]);
      return toVerdict(await reserve(keys, [attemptId, holdMs, ...rules.map((rule) => rule.limit)]));
    },

    async settle(rules, attemptId, outcome) {
      if (rules.length === 0) return;
      const keys = rules.flatMap((rule) => [rule.key, heldKey(rule)]);
      const perRule = rules.flatMap((rule) => [rule.windowMs, outcome.clearKeys.includes(rule.key) ? 1 : 0]);
      await settle(keys, [attemptId, outcome.failed ? 1 : 0, ...perRule]);
    },

    async peek(key) {
      return Number((await redis.get(key)) ?? 0);
    },

    async remember(key, ttlMs) {
      await redis.set(key, '1', 'PX', ttlMs);
    },

    async close() {},
  };
}

import type { LimitRule, RateLimitStore, SettleOutcome, Verdict } from './rate-limit-store.ts';

interface Counter {
  count: number;
  expiresAt: number;
}

const SWEEP_INTERVAL_MS = 30_000;

/**
 * The in-process store: one instance's counters in Maps. Node runs each call to the end
 * without interleaving, so every check-and-count is atomic; expired entries are swept.
 */
export function createMemoryStore(options: { now?: () => number } = {}): RateLimitStore & { size(): number } {
  const now = options.now ?? Date.now;
  const counters = new Map<string, Counter>();
  const holds = new Map<string, Map<string, number>>();

  function liveCounter(key: string, at: number): Counter | undefined {
    const counter = counters.get(key);
    if (counter && counter.expiresAt <= at) {
      counters.delete(key);
      return undefined;
    }
    return counter;
  }

  function liveHolds(key: string, at: number): number {
    const attempts = holds.get(key);
    if (!attempts) return 0;
    for (const [attemptId, expiresAt] of attempts) if (expiresAt <= at) attempts.delete(attemptId);
    if (attempts.size === 0) holds.delete(key);
    return attempts.size;
  }

  function count(rule: LimitRule, at: number): void {
    const counter = liveCounter(rule.key, at);
    if (counter) counter.count += 1;
    else counters.set(rule.key, { count: 1, expiresAt: at + rule.windowMs });
  }

  /** The refusing rule with the longest wait, if any rule is at its limit. */
  function refusal(rules: LimitRule[], at: number): Verdict | undefined {
    let verdict: Verdict | undefined;
    rules.forEach((rule, ruleIndex) => {
      const counter = liveCounter(rule.key, at);
      if (!counter || counter.count < rule.limit) return;
      const retryAfterMs = counter.expiresAt - at;
      if (!verdict || (verdict.outcome === 'refused' && retryAfterMs > verdict.retryAfterMs)) verdict = { outcome: 'refused', retryAfterMs, ruleIndex };
    });
    return verdict;
  }

  function sweep(): void {
    const at = now();
    for (const [key, counter] of counters) if (counter.expiresAt <= at) counters.delete(key);
    for (const key of holds.keys()) liveHolds(key, at);
  }

  const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
  sweeper.unref();

  return {
    async consume(counted, checked = []) {
      const at = now();
      const refused = refusal([...counted, ...checked], at);
      if (refused) return refused;
      for (const rule of counted) count(rule, at);
      return { outcome: 'allowed' };
    },

    async record(rules) {
      const at = now();
      for (const rule of rules) count(rule, at);
    },

    async reserve(rules, attemptId, holdMs) {
      const at = now();
      const refused = refusal(rules, at);
      if (refused) return refused;
      const busy = rules.some((rule) => (liveCounter(rule.key, at)?.count ?? 0) + liveHolds(rule.key, at) >= rule.limit);
      if (busy) return { outcome: 'busy' };
      for (const rule of rules) {
        let attempts = holds.get(rule.key);
        if (!attempts) holds.set(rule.key, (attempts = new Map()));
        attempts.set(attemptId, at + holdMs);
      }
      return { outcome: 'allowed' };
    },

    async settle(rules, attemptId, outcome: SettleOutcome) {
      const at = now();
      for (const rule of rules) {
        const attempts = holds.get(rule.key);
        attempts?.delete(attemptId);
        if (attempts?.size === 0) holds.delete(rule.key);
        if (outcome.failed) count(rule, at);
        else if (outcome.clearKeys.includes(rule.key)) counters.delete(rule.key);
      }
    },

    async peek(key) {
      return liveCounter(key, now())?.count ?? 0;
    },

    async remember(key, ttlMs) {
      counters.set(key, { count: 1, expiresAt: now() + ttlMs });
    },

    async close() {
      clearInterval(sweeper);
      counters.clear();
      holds.clear();
    },

    size: () => counters.size + holds.size,
  };
}

import type { Target } from './targets.ts';

// Signing in on Sesame costs an argon2id verification (~10 ms of CPU here), so what a scenario's
// virtual users sign in for (browser sessions, refresh chains, Agent API tokens) is kept for the
// next measurement on the same Sesame. The ceilings sign in for nothing, and start afresh each time,
// since oidc-provider's in-memory adapter slows as one grant collects tokens.
const kept = new Map<string, unknown[]>();

/**
 * The `count` items a scenario's virtual users need on this target: kept ones first, new ones made
 * with `make(index)`. The array is the kept one, so what a virtual user writes back (its newest
 * refresh token) is what the next measurement starts from.
 */
export async function reusable<T>(target: Target, what: string, count: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const key = `${target.label} ${what}`;
  const items = (target.kind === 'sesame' ? (kept.get(key) as T[] | undefined) : undefined) ?? [];
  const missing = Array.from({ length: Math.max(0, count - items.length) }, (_, i) => items.length + i);
  const made = await Promise.all(missing.map((index) => make(index)));
  items.push(...made);
  if (target.kind === 'sesame') kept.set(key, items);
  return items;
}

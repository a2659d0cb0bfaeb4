import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id parameters: 19 MiB, 2 passes, 1 lane.
const ARGON2_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id, a const enum */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Each argon2id computation holds 19 MiB outside the heap and one of libuv's four threads, which token
 * signing shares. More at once than there are cores makes none finish sooner, so the rest wait their turn:
 * the peak memory of a burst of sign-ins is bounded by the cores, and on a machine with fewer cores than
 * those threads, signing keeps threads of its own.
 */
export const ARGON2_AT_ONCE = Math.max(1, availableParallelism());

const waiting: Array<() => void> = [];
let running = 0;

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= ARGON2_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, so a newcomer cannot take it first.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hash(password, ARGON2_OPTIONS));
}

/** The stored hash of a person who has no password yet (invited): no password matches it. */
export const NO_PASSWORD_HASH = '';

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no stored hash (unknown account, or invited and no password yet) it
 * verifies against a dummy hash anyway, so either costs the same time as a wrong password.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (storedHash === undefined || storedHash === NO_PASSWORD_HASH) {
    dummyHash ??= hashPassword('sesame-dummy-password-for-timing');
    const stored = await dummyHash;
    await inTurn(() => verify(stored, password)).catch(() => false);
    return false;
  }
  return inTurn(() => verify(storedHash, password)).catch(() => false);
}

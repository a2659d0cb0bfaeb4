import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id parameters: 19 MiB, 2 passes, 1 lane.
const ARGON2_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id, a const enum */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
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
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

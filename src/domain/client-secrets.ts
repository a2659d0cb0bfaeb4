import type { SecretStatus } from './statuses.ts';

/** Usable at /token: the active secret, or a retiring one whose grace period has not ended. */
export function secretIsUsable(secret: { status: SecretStatus; expiresAt: number | null }, now: number): boolean {
  if (secret.status === 'active') return true;
  return secret.status === 'retiring' && secret.expiresAt !== null && secret.expiresAt > now;
}

/** Client secrets supplied in a first-deployment file: long enough, and printable ASCII (so `-._~` are fine). */
export const IMPORTED_SECRET_RULES = { minLength: 16, maxLength: 512, pattern: /^[\x20-\x7e]+$/ } as const;

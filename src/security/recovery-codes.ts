import { randomInt } from 'node:crypto';
import { sha256Hex } from '../domain/digests.ts';

// No 0/o, 1/l/i: codes are read off paper. 31 symbols, 16 of them: about 79 bits each.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/** A fresh code, grouped for reading: `abcd-efgh-jkmn-pqrs`. */
export function newRecoveryCode(): string {
  const symbols = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return symbols.match(/.{4}/g)!.join('-');
}

/** What is stored: the digest of the code as typed (case, spaces and dashes ignored), salted with the person. */
export function recoveryCodeDigest(subjectId: string, code: string): string {
  return sha256Hex(`${subjectId}:${code.toLowerCase().replace(/[\s-]/g, '')}`);
}

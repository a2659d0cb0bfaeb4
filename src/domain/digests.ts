import { createHash } from 'node:crypto';

/** Tokens and client secrets are high-entropy, so a fast digest is enough; only digests are stored. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

import { timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented secret (token, digest, MAC) with the expected one in time that does not depend
 * on where they first differ, so a guesser learns nothing from how long a refusal takes.
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  const left = Buffer.from(presented, 'utf8');
  const right = Buffer.from(expected, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

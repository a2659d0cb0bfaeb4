import { createHash } from 'node:crypto';

/**
 * Counter keys are digests: an account name can be 64 KiB of attacker's text, and neither
 * account names nor addresses need to sit in Redis in clear. The issuer keeps two Sesame
 * deployments on one Redis apart.
 */
export function limitKeyFactory(issuer: string) {
  const prefix = `sesame:rl:${createHash('sha256').update(issuer).digest('base64url').slice(0, 10)}`;
  return (name: string, ...parts: string[]): string =>
    `${prefix}:${name}:${createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32)}`;
}

import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './constant-time.ts';

/** How long a browser stays a known device of the person who signed in on it (renewed at each sign-in). */
export const DEVICE_COOKIE_DAYS = 90;

const VALUE = /^([A-Za-z0-9_-]{1,200})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function mac(key: string, subjectId: string, expiresAt: number): Buffer {
  return createHmac('sha256', key).update(`sesame known device\u0000${subjectId}\u0000${expiresAt}`).digest();
}

/**
 * The "known device" cookie: set after a successful sign-in at the login page or the console, it names
 * the person (subject) and its expiry under an HMAC of the instance's cookie keys, so it cannot be made
 * or altered elsewhere. A browser that carries it is not slowed by the per-account failure count of
 * that person (src/rate-limit/sign-in-limiter.ts); it grants nothing else. HttpOnly, SameSite=Lax,
 * Path=/, and Secure with the `__Host-` prefix when the issuer is https. The first key signs; every
 * key verifies, so rotating OIDC_COOKIE_KEYS forgets no device.
 */
export function createDeviceCookie(options: { issuer: string; cookieKeys: readonly string[]; now?: () => number }) {
  const { cookieKeys } = options;
  if (cookieKeys.length === 0) throw new Error('the device cookie needs at least one cookie key');
  const now = options.now ?? Date.now;
  const secure = options.issuer.startsWith('https://');
  const name = `${secure ? '__Host-' : ''}sesame_device`;
  const maxAgeSeconds = DEVICE_COOKIE_DAYS * 86_400;

  return {
    name,

    /** The Set-Cookie header value that makes this browser a known device of `subjectId`. */
    issue(subjectId: string): string {
      const expiresAt = Math.floor(now() / 1000) + maxAgeSeconds;
      const value = `${Buffer.from(subjectId).toString('base64url')}.${expiresAt}.${mac(cookieKeys[0]!, subjectId, expiresAt).toString('base64url')}`;
      return [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : []), `Max-Age=${maxAgeSeconds}`].join('; ');
    },

    /** The subject a valid, unexpired device cookie in this Cookie header names; null otherwise. */
    subjectOf(cookieHeader: string | undefined): string | null {
      for (const part of (cookieHeader ?? '').split(';')) {
        const separator = part.indexOf('=');
        if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
        const match = VALUE.exec(part.slice(separator + 1).trim());
        if (!match) continue;
        const subjectId = Buffer.from(match[1]!, 'base64url').toString('utf8');
        const expiresAt = Number(match[2]);
        if (expiresAt * 1000 <= now()) continue;
        const presented = match[3]!;
        if (cookieKeys.some((key) => constantTimeEqual(presented, mac(key, subjectId, expiresAt).toString('base64url')))) return subjectId;
      }
      return null;
    },
  };
}

export type DeviceCookie = ReturnType<typeof createDeviceCookie>;

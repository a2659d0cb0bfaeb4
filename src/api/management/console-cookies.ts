import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Cookie values here are our own base62/base64url tokens, so no encoding is needed; anything else is ignored.
const COOKIE_VALUE = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * The console's cookies: HttpOnly, SameSite=Lax, Path=/; Secure with the `__Host-` prefix when the
 * issuer is https (the prefix makes the browser refuse the cookie from any other host or path).
 * @fastify/cookie (registered by the Management API) parses the Cookie header.
 */
export function createConsoleCookies(issuer: string) {
  const secure = issuer.startsWith('https://');
  const prefix = secure ? '__Host-' : '';
  const names = { session: `${prefix}sesame_console`, loginCsrf: `${prefix}sesame_login_csrf` } as const;
  type CookieName = keyof typeof names;

  // Written as text rather than with reply.setCookie: the values need no encoding, and the header stays
  // byte for byte what clients and the tests have seen (cookie's serializer reorders the attributes).
  const attributes = (maxAgeSeconds: number) => ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : []), `Max-Age=${maxAgeSeconds}`].join('; ');

  return {
    names,
    secure,
    read(request: FastifyRequest, cookie: CookieName): string | undefined {
      const value = request.cookies[names[cookie]];
      return value !== undefined && COOKIE_VALUE.test(value) ? value : undefined;
    },
    set(reply: FastifyReply, cookie: CookieName, value: string, maxAgeSeconds: number): void {
      void reply.header('set-cookie', `${names[cookie]}=${value}; ${attributes(maxAgeSeconds)}`);
    },
    clear(reply: FastifyReply, cookie: CookieName): void {
      void reply.header('set-cookie', `${names[cookie]}=; ${attributes(0)}`);
    },
  };
}

export type ConsoleCookies = ReturnType<typeof createConsoleCookies>;

import type { FastifyReply, FastifyRequest } from 'fastify';

// Cookie values here are our own base62/base64url tokens, so no encoding is needed; anything else is ignored.
const COOKIE_VALUE = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * The console's cookies: HttpOnly, SameSite=Lax, Path=/; Secure with the `__Host-` prefix when the
 * issuer is https (the prefix makes the browser refuse the cookie from any other host or path).
 */
export function createConsoleCookies(issuer: string) {
  const secure = issuer.startsWith('https://');
  const prefix = secure ? '__Host-' : '';
  const names = { session: `${prefix}sesame_console`, loginCsrf: `${prefix}sesame_login_csrf` } as const;
  type CookieName = keyof typeof names;

  const attributes = (maxAgeSeconds: number) => ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : []), `Max-Age=${maxAgeSeconds}`].join('; ');

  return {
    names,
    secure,
    read(request: FastifyRequest, cookie: CookieName): string | undefined {
      const wanted = names[cookie];
      for (const part of (request.headers.cookie ?? '').split(';')) {
        const separator = part.indexOf('=');
        if (separator < 0) continue;
        if (part.slice(0, separator).trim() !== wanted) continue;
        const value = part.slice(separator + 1).trim();
        if (COOKIE_VALUE.test(value)) return value;
      }
      return undefined;
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

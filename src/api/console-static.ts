import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

/**
 * Everything the console loads comes from this server: no inline script or style, no other origin.
 * The OIDC pages that link the theme send their own policy.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

// A path whose last segment looks like a file name is a missing asset, not a page of the app.
const LOOKS_LIKE_A_FILE = /\/[^/]*\.[A-Za-z0-9]{1,8}$/;
// Under the asset folders, or with a `.` or `..` segment (plain or percent-encoded), a path names no page either.
const NOT_A_PAGE = /^\/console\/(assets|theme)(\/|$)|\/(\.|%2e){1,2}(\/|$)/i;

export interface ConsoleOptions {
  /** The Vite build (web/dist); tests may point elsewhere. */
  distDir?: string;
  /** The shared stylesheets, served as they are at /console/theme/. */
  themeDir?: string;
}

/**
 * Serves the console at /console: hashed build assets with long caching, the theme that the OIDC
 * pages share, and index.html for every other path so deep links work in the single-page app.
 */
export async function registerConsole(app: FastifyInstance, options: ConsoleOptions = {}): Promise<void> {
  const distDir = options.distDir ?? `${WEB_DIR}dist/`;
  const themeDir = options.themeDir ?? `${WEB_DIR}theme/`;

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (_request, reply) => {
        void reply.headers(SECURITY_HEADERS);
      });
      // @fastify/static refuses a directory (the folder itself, `./`, `//`) with 403 and a path outside its root
      // with 404: neither is a file here, and neither is worth a stack trace.
      scope.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
        if (error.statusCode === 403 || error.statusCode === 404) return reply.callNotFound();
        throw error;
      });

      await scope.register(fastifyStatic, {
        root: `${distDir}assets/`,
        prefix: '/assets/',
        decorateReply: false,
        index: false,
        dotfiles: 'ignore',
        cacheControl: false,
        setHeaders: (reply) => void reply.header('cache-control', 'public, max-age=31536000, immutable'),
      });
      await scope.register(fastifyStatic, {
        root: themeDir,
        prefix: '/theme/',
        decorateReply: false,
        index: false,
        dotfiles: 'ignore',
        cacheControl: false,
        // Not content-hashed: browsers revalidate (cheaply, by ETag) so a new theme shows at once.
        setHeaders: (reply) => void reply.header('cache-control', 'no-cache'),
      });

      const sendApp = async (url: string, reply: FastifyReply) => {
        const path = url.split('?')[0] ?? '';
        if (LOOKS_LIKE_A_FILE.test(path) || NOT_A_PAGE.test(path)) return reply.callNotFound();
        let html: string;
        try {
          html = await readFile(`${distDir}index.html`, 'utf8');
        } catch {
          return reply
            .status(503)
            .header('cache-control', 'no-store')
            .type('text/plain; charset=utf-8')
            .send('The console has not been built. Run `npm run build:web` (npm start and npm test do it when it is missing).\n');
        }
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
      };

      scope.get('/', (request, reply) => sendApp(request.url, reply));
      scope.get('/*', (request, reply) => sendApp(request.url, reply));
    },
    { prefix: '/console' },
  );
}

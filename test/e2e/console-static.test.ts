import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONSOLE_CSP, registerConsole } from '../../src/api/console-static.ts';
import { buildConsoleIfStale } from '../../web/build-if-stale.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

const distDir = fileURLToPath(new URL('../../web/dist/', import.meta.url));

// How the server hands out the console: the app at every deep link, hashed assets cached for good,
// the shared theme, and a Content-Security-Policy that allows nothing inline and nothing from elsewhere.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console static files', () => {
  let context: TestContext;

  beforeAll(async () => {
    await buildConsoleIfStale({ quiet: true });
    context = await createTestContext('sqlite');
  });

  afterAll(async () => {
    await context?.close();
  });

  test('the policy allows scripts, styles and requests from this origin only, nothing inline', () => {
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("style-src 'self'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|data:/);
  });

  test('every console path, deep links included, gets the app with the policy', async () => {
    for (const url of ['/console', '/console/', '/console/projects/prj_x/clients/cli_y', '/console/sign-in?next=%2Fprojects']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="app"></div>');
    }
  });

  test('the built page has no inline script or style and loads nothing from elsewhere', async () => {
    const html = readFileSync(join(distDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const css = readdirSync(join(distDir, 'assets')).filter((file) => file.endsWith('.css'));
    for (const file of css) expect(readFileSync(join(distDir, 'assets', file), 'utf8')).not.toMatch(/url\(\s*['"]?(https?:|\/\/|data:)/);
  });

  test('hashed assets are cached for good; a missing one is a plain 404, not the app', async () => {
    const [script] = readdirSync(join(distDir, 'assets')).filter((file) => file.endsWith('.js'));
    const asset = await context.app.inject({ method: 'GET', url: `/console/assets/${script}` });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await context.app.inject({ method: 'GET', url: '/console/assets/missing-0000.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found' });
    const traversal = await context.app.inject({ method: 'GET', url: '/console/assets/..%2f..%2fpackage.json' });
    expect(traversal.statusCode).toBeGreaterThanOrEqual(400);
    expect(traversal.body).not.toContain('"name": "sesame"');
  });

  test('the theme the OIDC pages share is served as it is, revalidated on every use', async () => {
    for (const file of ['tokens.css', 'base.css']) {
      const response = await context.app.inject({ method: 'GET', url: `/console/theme/${file}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/css');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    expect((await context.app.inject({ method: 'GET', url: '/console/theme/favicon.svg' })).headers['content-type']).toContain('image/svg+xml');
  });

  test('without a build the console says how to build it instead of failing obscurely', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'sesame-no-console-'));
    const app = Fastify();
    try {
      await registerConsole(app, { distDir: `${empty}/` });
      const response = await app.inject({ method: 'GET', url: '/console/projects' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build:web');
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleIfStale } from '../../web/build-if-stale.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

// Probing paths under the console's asset folders is what scanners do all day: each is a plain 404, never a 500 with a stack trace.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console asset paths that name no file', () => {
  let ctx: TestContext;
  let logged = '';
  beforeAll(async () => {
    await buildConsoleIfStale({ quiet: true });
    const logStream = new Writable({ write: (chunk, _encoding, done) => ((logged += String(chunk)), done()) });
    ctx = await createTestContext('sqlite', { LOG_LEVEL: 'info' }, { logStream });
  });
  afterAll(() => ctx?.close());

  // Over a real socket: inject (like fetch) resolves `..` segments before the server sees them, a scanner does not.
  async function get(path: string): Promise<{ status: number; body: string }> {
    if (!ctx.app.server.listening) await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
  }

  it.each([
    '/console/assets/',
    '/console/assets/.',
    '/console/assets/./',
    '/console/assets//',
    '/console/assets/..',
    '/console/assets/../',
    '/console/assets/%2e%2e',
    '/console/assets/%2e%2e/',
    '/console/assets/..%2f..%2fpackage.json',
    '/console/assets/x/..',
    '/console/theme/',
    '/console/theme/..',
    '/console/projects/../assets/',
  ])('%s answers 404 not_found', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ error: 'not_found' });
  });

  it('logs no error for any of them', () => {
    expect(logged).not.toContain('"level":50');
    expect(logged).not.toContain('unhandled error');
  });

  it('still serves the app at its deep links and a real asset', async () => {
    expect((await ctx.app.inject({ url: '/console/projects/prj_x' })).statusCode).toBe(200);
    const page = (await ctx.app.inject({ url: '/console' })).body;
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    expect((await ctx.app.inject({ url: script! })).statusCode).toBe(200);
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';

/** Every method and path docs/oidc.md's endpoint table promises, e.g. "`GET` or `POST {issuer}/userinfo`". */
function documentedEndpoints(): { name: string; method: string; path: string }[] {
  const doc = readFileSync(new URL('../../docs/oidc.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('## Endpoints'), doc.indexOf('\n\n', doc.indexOf('| What |')));
  return table
    .split('\n')
    .filter((line) => line.includes('{issuer}'))
    .flatMap((line) => {
      const [, name = '', where = ''] = line.split('|').map((cell) => cell.trim());
      const path = /\{issuer\}(\/[^`\s]*)/.exec(where)![1]!;
      return [...where.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\b/g)].map(([method]) => ({ name, method: method!, path }));
    });
}

describe.each(TEST_ENGINES)('docs/oidc.md promises only endpoints that answer, on %s', (engine) => {
  let server: OidcTestServer;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
  });
  afterAll(() => server.close());

  it('lists the endpoints with their methods', () => {
    const listed = documentedEndpoints().map(({ method, path }) => `${method} ${path}`);
    expect(listed).toEqual(expect.arrayContaining(['GET /.well-known/openid-configuration', 'GET /auth', 'POST /token', 'GET /userinfo', 'GET /jwks', 'GET /session/end']));
  });

  it('every documented method and path is served (answers, even if only to refuse a bare request, but never 404)', async () => {
    for (const { name, method, path } of documentedEndpoints()) {
      const response = await fetch(`${server.issuer}${path}`, {
        method,
        redirect: 'manual',
        ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' } : {}),
      });
      expect(response.status, `${name}: ${method} ${path}`).not.toBe(404);
      expect(response.status, `${name}: ${method} ${path}`).toBeLessThan(500);
    }
  });
});

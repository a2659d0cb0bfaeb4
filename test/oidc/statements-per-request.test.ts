import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

/**
 * Each statement is a round trip on PostgreSQL and most of a protocol request's database time on
 * SQLite (docs/performance.md), so the hot protocol requests have a statement budget: a change that
 * adds a query to one of them fails here and has to say why the budget should grow.
 */
describe.each(TEST_ENGINES)('SQL statements per protocol request on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let statements: string[] | undefined;
  beforeAll(async () => {
    server = await startOidcTestServer(engine, {}, { onStatement: (sql) => statements?.push(sql) });
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  async function statementsOf<T>(request: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    statements = [];
    try {
      const result = await request();
      return { result, statements };
    } finally {
      statements = undefined;
    }
  }
  const writes = (sqls: string[]) => sqls.filter((sql) => !sql.startsWith('select'));

  it('keeps the code exchange, the refresh, a signed-in /auth and /userinfo within their budgets', async () => {
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const offline = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const signedIn = await signInThroughPages(agent, offline.url, PERSON);

    const exchange = await statementsOf(() => redeemCode(config, offline, signedIn.location!));
    expect(exchange.result.refresh_token).toBeDefined();
    // The client (with its secrets' digests) and the person come from the read cache: /auth and the sign-in read them.
    expect(exchange.statements).toHaveLength(6);
    // consume the code, store the access token and the refresh token, note the secret's use
    expect(writes(exchange.statements)).toHaveLength(4);

    const refresh = await statementsOf(() => oidc.refreshTokenGrant(config, exchange.result.refresh_token!));
    expect(refresh.result.refresh_token).not.toBe(exchange.result.refresh_token);
    expect(refresh.statements).toHaveLength(5);
    // consume the refresh token, store its replacement and the access token; the cached client's secret was
    // noted a moment ago by this instance (secrets-bridge.ts remembers), so it is not noted again
    expect(writes(refresh.statements)).toHaveLength(3);

    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    const authorization = await statementsOf(() => agent.request(request.url));
    expect(authorization.result.status).toBe(303);
    // The session is read, not written again: only its sliding expiry would have moved (adapter.ts).
    expect(authorization.statements).toHaveLength(3);
    expect(writes(authorization.statements)).toHaveLength(1);

    const tokens = await statementsOf(() => redeemCode(config, request, authorization.result.location!));
    expect(tokens.statements).toHaveLength(5);

    const userinfo = await statementsOf(() => oidc.fetchUserInfo(config, tokens.result.access_token, fixture.person.subjectId));
    expect(userinfo.result.sub).toBe(fixture.person.subjectId);
    expect(userinfo.statements).toHaveLength(3);
    expect(writes(userinfo.statements)).toEqual([]);
  });
});

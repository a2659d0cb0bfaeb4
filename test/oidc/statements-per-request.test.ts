import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

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
  // A statement that changes data: a write, or a WITH whose parts write (PostgreSQL's one-statement flush).
  const isWrite = (sql: string) => /^(insert|update|delete)\b/.test(sql) || /^with\b.*\(\s*(insert|update|delete)\b/s.test(sql);
  const writes = (sqls: string[]) => sqls.filter(isWrite);
  /** Commits: each write outside a transaction, and each transaction. */
  const commits = (sqls: string[]) => {
    let inTransaction = false;
    let count = 0;
    for (const sql of sqls) {
      if (sql === 'begin') inTransaction = true;
      else if (sql === 'commit') [inTransaction, count] = [false, count + 1];
      else if (!inTransaction && isWrite(sql)) count += 1;
    }
    return count;
  };
  // A token request's consume and new tokens, a sign-in's return to /auth's writes, are written at the
  // request's end: on PostgreSQL in one statement, on SQLite in one transaction (begin, two writes, commit).
  const endWrite = engine === 'postgres' ? 1 : 4;

  it('keeps the code exchange, the refresh, a signed-in /auth and /userinfo within their budgets', async () => {
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const offline = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const signedIn = await signInThroughPages(agent, offline.url, PERSON);

    const exchange = await statementsOf(() => redeemCode(config, offline, signedIn.location!));
    expect(exchange.result.refresh_token).toBeDefined();
    // The code with its grant and session; the consume of the code with the access and refresh tokens; the
    // secret's last use (at most once a minute). The client (with its secrets' digests) and the person come
    // from the read cache: /auth and the sign-in read them.
    expect(exchange.statements).toHaveLength(2 + endWrite);
    expect(commits(exchange.statements)).toBe(2);
    if (engine === 'postgres') expect(writes(exchange.statements)).toHaveLength(2);

    const refresh = await statementsOf(() => oidc.refreshTokenGrant(config, exchange.result.refresh_token!));
    expect(refresh.result.refresh_token).not.toBe(exchange.result.refresh_token);
    // The refresh token with its grant and session; the consume with the new tokens. The cached client's
    // secret was noted a moment ago by this instance (secrets-bridge.ts remembers), so it is not noted again.
    expect(refresh.statements).toHaveLength(1 + endWrite);
    expect(commits(refresh.statements)).toBe(1);
    if (engine === 'postgres') expect(writes(refresh.statements)).toHaveLength(1);

    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    const authorization = await statementsOf(() => agent.request(request.url));
    expect(authorization.result.status).toBe(303);
    // The session is read, not written again: only its sliding expiry would have moved (adapter.ts).
    expect(authorization.statements).toHaveLength(3);
    expect(writes(authorization.statements)).toHaveLength(1);

    // A code bound to the browser's session: its session comes with it, no lookup of its own.
    const tokens = await statementsOf(() => redeemCode(config, request, authorization.result.location!));
    expect(tokens.statements).toHaveLength(1 + endWrite);
    expect(commits(tokens.statements)).toBe(1);

    // The access token with its grant and session (the client and the account are cached).
    const userinfo = await statementsOf(() => oidc.fetchUserInfo(config, tokens.result.access_token, fixture.person.subjectId));
    expect(userinfo.result.sub).toBe(fixture.person.subjectId);
    expect(userinfo.statements).toHaveLength(1);
    expect(writes(userinfo.statements)).toEqual([]);

    // A sign-in's return to /auth: the finished interaction goes, the session is stored under a new id (the old
    // one goes), and a code or the next interaction is stored, all in one write at the request's end.
    const browser = new OidcUserAgent(server.issuer);
    const loginPage = await browser.follow((await authorizationRequest(config, fixture.web, 'openid profile')).url);
    const loginAction = /action="(\/interaction\/[^"]+\/login)"/.exec(loginPage.body)![1]!;
    const login = await statementsOf(() => browser.request(loginAction, { form: { csrf: csrfTokenOf(loginPage), account: PERSON.account, password: PERSON.password } }));
    const loggedIn = login.result;
    expect(loggedIn.location).toMatch(/\/auth\/[^/]+$/);
    // The sign-in reads its interaction once (the result is stored on the one read), the person, their linked
    // identities and factors and the policy (the sign-in decision), then stores the result and audits the sign-in.
    expect(login.statements.filter((sql) => /^select .* from "oidc_payloads"/.test(sql))).toHaveLength(1);
    expect(login.statements).toHaveLength(9);
    const resume = await statementsOf(() => browser.request(loggedIn.location!));
    expect(resume.result.status).toBe(303);
    // The interaction and the grant (the client and the account are cached); the write.
    expect(resume.statements).toHaveLength(2 + endWrite);
    expect(commits(resume.statements)).toBe(1);
    if (engine === 'postgres') expect(writes(resume.statements)).toHaveLength(1);
  });
});

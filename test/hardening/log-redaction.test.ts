import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

const PASSWORD = 'redaction-test-password-Zq81';
const WRONG_PASSWORD = 'wrong-password-never-logged-Kp27';
const COOKIE_VALUE = 'cookie-session-value-never-logged-Hx55';
const QUERY_CODE = 'authorization-code-never-logged-Tb90';
const QUERY_SECRET = 'client-secret-in-query-never-logged-Ld44';
const BASIC_SECRET = 'basic-secret-never-logged-Wc63';
const BODY_REFRESH = 'refresh-token-never-logged-Nm12';
const BODY_VERIFIER = 'code-verifier-never-logged-Ge08-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const METRICS_TOKEN = 'metrics-token-never-logged-Rs71-0123456789';

describe.each(TEST_ENGINES)('request logging at debug on %s', (engine) => {
  let ctx: TestContext;
  const lines: string[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, { LOG_LEVEL: 'debug', METRICS_TOKEN }, { logStream: { write: (line: string) => void lines.push(line) } });
    await ctx.services.users.createUser(systemActor, { account: 'logged', displayName: 'Logged', password: PASSWORD });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('logs requests without any password, token, cookie, code or secret they carried', async () => {
    const login = await ctx.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account: 'logged', password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    const accessToken: string = login.json().accessToken;
    await ctx.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account: 'logged', password: WRONG_PASSWORD } });
    await ctx.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account: 'nobody-here', password: WRONG_PASSWORD } });
    await ctx.app.inject({ url: '/api/agent/auth/me', headers: { authorization: `Bearer ${accessToken}` } });
    await ctx.app.inject({ url: '/api/management/auth/context', headers: { cookie: `sesame_session=${COOKIE_VALUE}; other=${COOKIE_VALUE}` } });
    await ctx.app.inject({ url: `/auth?client_id=cli_x&code=${QUERY_CODE}&client_secret=${QUERY_SECRET}&response_type=code` });
    await ctx.app.inject({
      method: 'POST',
      url: '/token',
      headers: { authorization: `Basic ${Buffer.from(`cli_x:${BASIC_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=refresh_token&refresh_token=${BODY_REFRESH}&code_verifier=${BODY_VERIFIER}&code=${QUERY_CODE}`,
    });
    await ctx.app.inject({ url: `/no/such/path?access_token=${accessToken}` });
    await ctx.app.inject({ url: '/metrics', remoteAddress: '203.0.113.1', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });

    const log = lines.join('');
    // The run did log these requests at debug: the scan below is over real request lines.
    expect(log).toContain('incoming request');
    expect(log).toContain('/api/agent/auth/login');
    expect(log).toContain('/token');
    for (const secret of [
      PASSWORD,
      WRONG_PASSWORD,
      accessToken,
      COOKIE_VALUE,
      QUERY_CODE,
      QUERY_SECRET,
      BASIC_SECRET,
      Buffer.from(`cli_x:${BASIC_SECRET}`).toString('base64'),
      BODY_REFRESH,
      BODY_VERIFIER,
      METRICS_TOKEN,
    ]) {
      expect(log, `a log line contains ${secret.slice(0, 12)}...`).not.toContain(secret);
    }
  });

  it('censors credential fields when code logs an object holding them', () => {
    ctx.app.log.debug(
      {
        body: { password: PASSWORD, clientSecret: QUERY_SECRET, client_secret: QUERY_SECRET, refresh_token: BODY_REFRESH, code: QUERY_CODE, code_verifier: BODY_VERIFIER },
        req: { headers: { authorization: `Bearer ${METRICS_TOKEN}`, cookie: COOKIE_VALUE } },
      },
      'object with credentials',
    );
    const line = lines.find((entry) => entry.includes('object with credentials')) ?? '';
    expect(line).toContain('[redacted]');
    for (const secret of [PASSWORD, QUERY_SECRET, BODY_REFRESH, QUERY_CODE, BODY_VERIFIER, METRICS_TOKEN, COOKIE_VALUE]) expect(line).not.toContain(secret);
  });
});

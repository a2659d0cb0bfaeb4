import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '../../src/security/security-headers.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789abcdef';

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(String(headers['content-security-policy'])).toMatch(/default-src 'none'/);
  expect(String(headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
}

describe.each(TEST_ENGINES)('operations endpoints on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { METRICS_TOKEN });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('security headers are on every response: JSON, errors, API paths and the provider', async () => {
    for (const url of ['/health/live', '/no/such/page', '/api/agent/no-such-operation', '/.well-known/openid-configuration']) {
      const response = await ctx.app.inject({ url });
      expectSecurityHeaders(response.headers);
    }
    const plain = await ctx.app.inject({ url: '/health/live' });
    expect(plain.headers['content-security-policy']).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
    // The issuer here is http://, so no HSTS: browsers ignore it over http and it would pin nothing.
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('pages keep their own stricter policy and still get the common headers', async () => {
    const console = await ctx.app.inject({ url: '/console/' });
    expect(console.statusCode).toBe(200);
    expect(console.headers['content-type']).toMatch(/^text\/html/);
    expectSecurityHeaders(console.headers);
    expect(console.headers['content-security-policy']).toMatch(/form-action 'self'/);
  });

  it('token responses are no-store, errors included', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&code=nothing',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(response.headers);
  });

  it('every /api response is no-store, whatever its status', async () => {
    for (const [method, url] of [
      ['GET', '/api/agent/no-such-operation'],
      ['POST', '/api/management/auth/login'],
      ['GET', '/api'],
    ] as const) {
      const response = await ctx.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(response.headers['cache-control'], `${method} ${url}`).toBe('no-store');
    }
  });

  it('/health/live and /health/ready answer JSON, never cached', async () => {
    const live = await ctx.app.inject({ url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await ctx.app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('/health/ready is 503 while any readiness condition fails, and 200 again once it holds', async () => {
    const condition = ctx.app.readiness.addFlag('testCondition');
    const notReady = await ctx.app.inject({ url: '/health/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toBeDefined();
    expect(notReady.json()).toMatchObject({ status: 'not_ready', checks: { database: 'ok', testCondition: 'failing' } });
    condition.set(true);
    expect((await ctx.app.inject({ url: '/health/ready' })).statusCode).toBe(200);
  });

  it('a readiness check that hangs counts as failing after the timeout', async () => {
    ctx.app.readiness.addCheck('hangs', () => new Promise<boolean>(() => {}));
    const started = Date.now();
    const response = await ctx.app.inject({ url: '/health/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json().checks.hangs).toBe('failing');
    expect(Date.now() - started).toBeLessThan(5_000);
    ctx.app.readiness.addCheck('hangs', () => true);
  });

  it('/metrics is served to loopback callers without a token', async () => {
    const response = await ctx.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE sesame_http_requests_total counter');
    const ipv6 = await ctx.app.inject({ url: '/metrics', remoteAddress: '::1' });
    expect(ipv6.statusCode).toBe(200);
  });

  it('/metrics is hidden from other callers without the token, refused with a wrong one, served with the right one', async () => {
    const outsider = await ctx.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().error).toBe('not_found');
    expect(outsider.body).not.toContain('sesame_');

    const wrong = await ctx.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('sesame_');

    const prefix = await ctx.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` } });
    expect(prefix.statusCode).toBe(401);

    const right = await ctx.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('sesame_http_requests_total');
  });

  it('metrics label requests by route pattern and status, never by raw URL or query', async () => {
    await ctx.app.inject({ url: '/health/live?access_token=leaked-query-value' });
    await ctx.app.inject({ url: '/api/agent/projects/prj_pathSecretValue/clients?code=leaked-code' });
    const body = (await ctx.app.inject({ url: '/metrics' })).body;
    expect(body).toMatch(/sesame_http_requests_total\{method="GET",route="\/health\/live",status="200"\} \d+/);
    expect(body).toMatch(/sesame_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/health\/live",status="200"\} \d+/);
    expect(body).not.toContain('leaked-query-value');
    expect(body).not.toContain('prj_pathSecretValue');
    expect(body).not.toContain('leaked-code');
    expect(body).not.toContain(METRICS_TOKEN);
  });
});

describe('operations endpoints behind a proxy (TRUST_PROXY)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(TEST_ENGINES[0] ?? 'sqlite', { METRICS_TOKEN, TRUST_PROXY: '127.0.0.1', OIDC_ISSUER: 'https://id.example.test' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a request the loopback proxy forwards from outside is an outsider for /metrics', async () => {
    const forwarded = await ctx.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(forwarded.statusCode).toBe(404);
    const withToken = await ctx.app.inject({
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.7', authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(withToken.statusCode).toBe(200);
  });

  it('X-Forwarded-For from an untrusted address is not believed', async () => {
    const spoofed = await ctx.app.inject({ url: '/metrics', remoteAddress: '198.51.100.7', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(spoofed.statusCode).toBe(404);
  });

  it('an https issuer adds Strict-Transport-Security', async () => {
    const response = await ctx.app.inject({ url: '/health/live' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});

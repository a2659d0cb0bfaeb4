import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

const PINO_DEBUG = 20;

/** What a person or an operator meets first (DESIGN 17): the home page, 404s, request ids, metrics, request log lines. */
describe.each(TEST_ENGINES)('first contact on %s', (engine) => {
  let ctx: TestContext;
  const lines: string[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, { LOG_LEVEL: 'debug' }, { logStream: { write: (line: string) => void lines.push(line) } });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('GET / is an HTML page linking to the console, discovery, the Agent API guide and the MCP metadata', async () => {
    const response = await ctx.app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<html lang="en">');
    expect(response.body).toContain('<title>Sesame</title>');
    for (const href of ['/console', '/.well-known/openid-configuration', '/api/agent/instructions', '/.well-known/oauth-protected-resource/mcp']) {
      expect(response.body).toContain(`href="${href}"`);
      const target = await ctx.app.inject({ url: href });
      expect(target.statusCode, href).toBeLessThan(400);
    }
  });

  it('GET / speaks the visitor\'s language', async () => {
    const response = await ctx.app.inject({ url: '/', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(response.body).toContain('<html lang="zh-CN">');
    expect(response.body).toContain('登录控制台');
    expect(response.body).not.toContain('Sign in to the console');
  });

  it('a 404 names the OpenAPI documents that exist', async () => {
    const response = await ctx.app.inject({ url: '/no/such/place' });
    expect(response.statusCode).toBe(404);
    const { error, error_description: description } = response.json();
    expect(error).toBe('not_found');
    expect(description).toContain('/api/agent/openapi.json');
    expect(description).toContain('/api/management/openapi.json');
    expect(description).not.toContain('GET /openapi.json');
    for (const path of ['/api/agent/openapi.json', '/api/management/openapi.json']) expect((await ctx.app.inject({ url: path })).statusCode, path).toBe(200);
  });

  it('echoes a valid X-Request-Id, replaces an invalid one, and logs the request under that id', async () => {
    const echoed = await ctx.app.inject({ url: '/health/live', headers: { 'x-request-id': 'caller-chosen-id.42' } });
    expect(echoed.headers['x-request-id']).toBe('caller-chosen-id.42');
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string; level: number }).filter((line) => line.reqId === 'caller-chosen-id.42');
    expect(logged.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(logged.every((line) => line.level === PINO_DEBUG)).toBe(true);

    for (const invalid of ['has space', 'x'.repeat(201), 'tab\there']) {
      const replaced = await ctx.app.inject({ url: '/health/live', headers: { 'x-request-id': invalid } });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const first = await ctx.app.inject({ url: '/health/live' });
    const second = await ctx.app.inject({ url: '/health/live' });
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it('oidc-provider\'s own responses carry the request id too', async () => {
    const response = await ctx.app.inject({ url: '/.well-known/openid-configuration', headers: { 'x-request-id': 'discovery-1' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toBe('discovery-1');
  });

  it('/metrics carries the standard Node.js metrics, Sesame\'s own, and the outbox', async () => {
    const body = (await ctx.app.inject({ url: '/metrics' })).body;
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
      'nodejs_heap_used_bytes',
      'nodejs_heap_size_limit_bytes',
      'sesame_http_requests_total',
      'sesame_http_request_duration_seconds',
      'sesame_sign_in_attempts_total',
      'sesame_rate_limit_refusals_total',
      'sesame_tokens_issued_total',
    ]) {
      expect(body, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    }
    expect(body).toMatch(/^sesame_build_info\{version="\d+\.\d+\.\d+[^"]*",node_version="v\d+[^"]*"\} 1$/m);
    expect(body).toMatch(/^sesame_mail_outbox_pending 0$/m);
  });
});

describe('first contact with the Agent API and MCP switched off', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(TEST_ENGINES[0]!, { OIDC_AGENT_API_ENABLED: 'false', SESAME_MCP_ENABLED: 'false' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('the home page and the 404 leave out what is not mounted', async () => {
    const home = (await ctx.app.inject({ url: '/' })).body;
    expect(home).toContain('href="/console"');
    expect(home).not.toContain('/api/agent');
    expect(home).not.toContain('oauth-protected-resource/mcp');
    const description: string = (await ctx.app.inject({ url: '/nowhere' })).json().error_description;
    expect(description).toContain('/api/management/openapi.json');
    expect(description).not.toContain('/api/agent');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient, type AgentClient, type ApiResponse, type ConsoleClient, type RawRequest } from './helpers/api-clients.ts';
import { snapshotDatabase } from './helpers/db-snapshot.ts';
import { createOpenApiChecker, type OpenApiChecker } from './helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

/** Bad requests get a documented 4xx in the one error shape and leave every row as it was. */
describe.each(TEST_ENGINES)('bad input on %s', (engine) => {
  let ctx: TestContext;
  let agent: AgentClient;
  let consoleClient: ConsoleClient;
  let agentChecker: OpenApiChecker;
  let consoleChecker: OpenApiChecker;
  let projectId: string;
  let clientId: string;
  let version: number;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await createAccounts(ctx.services, ['grace']);
    agent = createAgentClient(ctx.app);
    await agent.login('grace', PASSWORD);
    consoleClient = createConsoleClient(ctx.app);
    await consoleClient.login('grace', PASSWORD);
    const project = await agent.call('POST', '/projects', { name: 'Inputs' });
    projectId = project.body.project.projectId;
    version = project.body.project.version;
    const client = await agent.call('POST', `/projects/${projectId}/clients`, { clientType: 'spa', displayName: 'App', redirectUris: ['http://localhost/cb'], scopeWhitelist: ['openid'] });
    clientId = client.body.client.clientId;
    agentChecker = createOpenApiChecker((await agent.call('GET', '/openapi.json')).body);
    consoleChecker = createOpenApiChecker((await consoleClient.call('GET', '/openapi.json')).body);
  });
  afterAll(() => ctx.close());

  async function refused(request: RawRequest, surface: 'agent' | 'console' = 'agent'): Promise<ApiResponse> {
    const before = await snapshotDatabase(ctx.db);
    const response = surface === 'agent' ? await agent.request(request) : await consoleClient.request(request);
    expect(response.status, response.text).toBeGreaterThanOrEqual(400);
    expect(response.status, response.text).toBeLessThan(500);
    expect(Object.keys(response.body).sort()).toEqual(expect.arrayContaining(['error', 'error_description']));
    expect(response.headers['cache-control']).toBe('no-store');
    expect((surface === 'agent' ? agentChecker : consoleChecker).check(request.method, request.path, response)).toEqual([]);
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
    return response;
  }

  it('refuses wrong types without coercion, naming the field', async () => {
    const versionAsText = await refused({ method: 'PATCH', path: `/projects/${projectId}`, body: { expectedProjectVersion: String(version), name: 'X' } });
    expect(versionAsText.status).toBe(400);
    expect(versionAsText.body).toMatchObject({ error: 'invalid_request', field_errors: { expectedProjectVersion: 'must be a number' } });
    const nameAsNumber = await refused({ method: 'POST', path: '/projects', body: { name: 5 } });
    expect(nameAsNumber.body.field_errors).toEqual({ name: 'must be a string' });
    const nested = await refused({ method: 'PUT', path: `/projects/${projectId}/clients/${clientId}/revision`, body: { clientVersion: 1, redirectUris: ['http://localhost/cb', 7], scopeWhitelist: 'openid' } });
    expect(nested.body.field_errors).toEqual({ 'redirectUris.1': 'must be a string', scopeWhitelist: 'must be an array' });
    const fraction = await refused({ method: 'POST', path: `/projects/${projectId}/clients/${clientId}/secrets/rotate`, body: { clientVersion: 1.5 } });
    expect(fraction.body.field_errors).toEqual({ clientVersion: 'must be an integer' });
  });

  it('refuses unknown and missing fields', async () => {
    const unknown = await refused({ method: 'POST', path: '/projects', body: { name: 'X', colour: 'blue' } });
    expect(unknown.body).toMatchObject({ error: 'invalid_request', field_errors: { colour: 'is not a known field; remove it' } });
    const missing = await refused({ method: 'POST', path: `/projects/${projectId}/members`, body: { subjectId: 'someone' } });
    expect(missing.body.field_errors).toEqual({ expectedProjectVersion: 'is required' });
    const badEnum = await refused({ method: 'PATCH', path: `/projects/${projectId}`, body: { expectedProjectVersion: version, status: 'deleted' } });
    expect(badEnum.body.field_errors).toEqual({ status: 'must be one of "active", "archived"' });
    const unexpectedBody = await refused({ method: 'POST', path: '/auth/logout', body: { everything: true } });
    expect(unexpectedBody.body.error).toBe('invalid_request');
  });

  it('refuses bodies that are not JSON objects', async () => {
    const notJson = await refused({ method: 'POST', path: '/projects', payload: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(notJson.body.error).toBe('invalid_request');
    const array = await refused({ method: 'POST', path: '/projects', body: [{ name: 'X' }] });
    expect(array.body.error).toBe('invalid_request');
    const empty = await refused({ method: 'POST', path: '/projects', payload: '', headers: { 'content-type': 'application/json' } });
    expect(empty.body.error).toBe('invalid_request');
    const poisoned = await refused({ method: 'POST', path: '/projects', payload: '{"name":"X","__proto__":{"isAdmin":true}}', headers: { 'content-type': 'application/json' } });
    expect(poisoned.body.error).toBe('invalid_request');
  });

  it('refuses other content types with 415', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
      const response = await refused({ method: 'POST', path: '/projects', payload: 'name=X', headers: { 'content-type': contentType } });
      expect(response.status, contentType).toBe(415);
      expect(response.body.error).toBe('unsupported_media_type');
    }
    const noContentType = await refused({ method: 'POST', path: '/projects', payload: '{"name":"X"}' });
    expect(noContentType.status).toBe(415);
    const consoleForm = await refused({ method: 'POST', path: '/projects', payload: 'name=X', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 'console');
    expect(consoleForm.status).toBe(415);
  });

  it('refuses a body over 64 KiB with 413', async () => {
    const huge = await refused({ method: 'POST', path: '/projects', body: { name: 'X', description: 'x'.repeat(70 * 1024) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toBe('request_too_large');
    const consoleHuge = await refused({ method: 'POST', path: '/projects', body: { name: 'X', description: 'x'.repeat(70 * 1024) } }, 'console');
    expect(consoleHuge.status).toBe(413);
  });

  it('refuses bad query parameters', async () => {
    for (const query of ['limit=abc', 'limit=0', 'limit=1e2', 'limit=201', 'before=yesterday']) {
      const response = await refused({ method: 'GET', path: `/projects/${projectId}/audit-logs?${query}` });
      expect(response.status, query).toBe(400);
      expect(Object.keys(response.body.field_errors), query).toEqual([query.split('=')[0]]);
    }
    const noAccount = await refused({ method: 'GET', path: '/users/lookup' });
    expect(noAccount.body.field_errors).toEqual({ account: 'is required' });
  });

  it('refuses text no database can store faithfully, and malformed URLs, in the one error shape', async () => {
    const nul = await refused({ method: 'POST', path: `/projects/${projectId}/members`, body: { subjectId: 'a\u0000b', expectedProjectVersion: version } });
    expect(nul.body.field_errors).toEqual({ subjectId: 'must be well-formed Unicode text without NUL characters' });
    const surrogate = await refused({ method: 'POST', path: '/projects', body: { name: 'half \ud800 pair' } });
    expect(Object.keys(surrogate.body.field_errors)).toEqual(['name']);
    const login = await refused({ method: 'POST', path: '/auth/login', body: { account: 'grace\u0000', password: PASSWORD } });
    expect(login.status).toBe(400);
    for (const path of [`/projects/%00`, '/users/lookup?account=%00', `/projects/${projectId}/audit-logs?before=%00`]) {
      const response = await refused({ method: 'GET', path });
      expect(response.status, path).toBe(400);
      expect(response.body.error).toBe('invalid_request');
    }
    for (const path of ['/projects/%E0%A4%A', `/projects/${'p'.repeat(300)}`]) {
      const response = await agent.request({ method: 'GET', path });
      expect(response.status, path).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers a bad or missing token with 401 login_required', async () => {
    for (const authorization of [undefined, 'Bearer', 'Bearer nope', 'Basic Z3JhY2U6cGFzcw==', `Bearer ${agent.token} extra`]) {
      const response = await refused({ method: 'GET', path: '/projects', headers: authorization ? { authorization } : { authorization: '' } });
      expect(response.status, authorization).toBe(401);
      expect(response.body.error).toBe('login_required');
    }
  });
});

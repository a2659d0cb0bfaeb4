import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient, type AgentClient, type ApiResponse, type ConsoleClient, type RawRequest } from './helpers/api-clients.ts';
import { snapshotDatabase } from './helpers/db-snapshot.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';
import { importClientsDocument } from '../../src/startup/first-deployment.ts';

const webClient = {
  clientType: 'web',
  displayName: 'Web app',
  redirectUris: ['https://rp.example.com/callback'],
  scopeWhitelist: ['openid', 'profile', 'offline_access'],
};
const HTTPS_RULE = 'must use https (http is allowed only for localhost, 127.0.0.1 and [::1])';
const FRAGMENT_RULE = 'must not contain a fragment (#)';
const GRACE_RULE = 'must be a whole number of seconds from 0 to 604800';

/**
 * The client rules live in the contracts (src/domain/client-rules.ts applied by src/api/contracts/clients.ts):
 * both surfaces answer each broken rule with the same code and words, and write nothing.
 */
describe.each(TEST_ENGINES)('client rules on every path, on %s', (engine) => {
  let ctx: TestContext;
  let agent: AgentClient;
  let consoleClient: ConsoleClient;
  let projectId: string;
  let web: { clientId: string; clientVersion: number };
  let spa: { clientId: string; clientVersion: number };

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await createAccounts(ctx.services, ['rita']);
    agent = createAgentClient(ctx.app);
    await agent.login('rita', PASSWORD);
    consoleClient = createConsoleClient(ctx.app);
    await consoleClient.login('rita', PASSWORD);
    projectId = (await agent.call('POST', '/projects', { name: 'Rules' })).body.project.projectId;
    web = (await agent.call('POST', `/projects/${projectId}/clients`, webClient)).body.client;
    spa = (await agent.call('POST', `/projects/${projectId}/clients`, { ...webClient, clientType: 'spa', scopeWhitelist: ['openid'] })).body.client;
  });
  afterAll(() => ctx.close());

  /** The same request on both surfaces: refused alike, nothing written. */
  async function refusedOnBoth(request: RawRequest): Promise<ApiResponse> {
    const before = await snapshotDatabase(ctx.db);
    const fromAgent = await agent.request(request);
    const fromConsole = await consoleClient.request(request);
    expect(fromAgent.status, fromAgent.text).toBe(400);
    expect({ error: fromConsole.body.error, field_errors: fromConsole.body.field_errors }).toEqual({ error: fromAgent.body.error, field_errors: fromAgent.body.field_errors });
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
    return fromAgent;
  }

  it('refuses registrations that break a rule with invalid_client_metadata, and malformed ones with invalid_request', async () => {
    const cases: Array<[Record<string, unknown>, string, string, string?]> = [
      [{ redirectUris: [] }, 'invalid_client_metadata', 'redirectUris', 'at least one redirect URI is required'],
      [{ redirectUris: ['http://rp.example.com/cb'] }, 'invalid_client_metadata', 'redirectUris.0', HTTPS_RULE],
      [{ redirectUris: ['https://rp.example.com/cb#frag'] }, 'invalid_client_metadata', 'redirectUris.0', FRAGMENT_RULE],
      [{ postLogoutRedirectUris: ['https://rp.example.com/a', 'https://rp.example.com/a'] }, 'invalid_client_metadata', 'postLogoutRedirectUris', 'must not contain duplicates'],
      [{ scopeWhitelist: ['profile'] }, 'invalid_client_metadata', 'scopeWhitelist', 'must contain openid'],
      [{ scopeWhitelist: ['openid', 'admin'] }, 'invalid_client_metadata', 'scopeWhitelist'],
      [{ displayName: '' }, 'invalid_client_metadata', 'displayName', 'must not be empty'],
      [{ displayName: 'two\nlines' }, 'invalid_client_metadata', 'displayName', 'must be a single line'],
      [{ description: 'd'.repeat(2001) }, 'invalid_client_metadata', 'description', 'must be at most 2000 characters'],
      [{ clientType: 'spa', scopeWhitelist: ['openid', 'offline_access'] }, 'invalid_client_metadata', 'scopeWhitelist', 'a spa client cannot have offline_access'],
      [{ clientType: 'spa', requirePkce: false }, 'invalid_client_metadata', 'requirePkce', 'a spa client always requires PKCE'],
      [{ clientType: 'desktop' }, 'invalid_request', 'clientType'],
      [{ clientType: 'native', redirectUris: ['https://rp.example.com/cb'] }, 'invalid_client_metadata', 'redirectUris.0'],
      [{ clientType: 'native', redirectUris: ['http://127.0.0.1/cb'], requirePkce: false }, 'invalid_client_metadata', 'requirePkce', 'a native client always requires PKCE'],
      [{ redirectUris: 'https://rp.example.com/cb' }, 'invalid_request', 'redirectUris'],
    ];
    for (const [override, code, field, message] of cases) {
      const response = await refusedOnBoth({ method: 'POST', path: `/projects/${projectId}/clients`, body: { ...webClient, ...override } });
      expect(response.body.error, JSON.stringify(override)).toBe(code);
      expect(response.body.field_errors, JSON.stringify(override)).toHaveProperty([field], message ?? expect.any(String));
    }
  });

  it('reports every broken rule of a request at once', async () => {
    const response = await refusedOnBoth({
      method: 'POST',
      path: `/projects/${projectId}/clients`,
      body: { ...webClient, clientType: 'spa', displayName: ' ', redirectUris: ['http://rp.example.com/cb'], scopeWhitelist: ['openid', 'offline_access'] },
    });
    expect(response.body).toMatchObject({
      error: 'invalid_client_metadata',
      field_errors: { displayName: 'must not be empty', 'redirectUris.0': HTTPS_RULE, scopeWhitelist: 'a spa client cannot have offline_access' },
    });
  });

  it('names every problem of every field in one answer, each bad URI under its own path, several problems of one field in one message', async () => {
    const response = await refusedOnBoth({
      method: 'POST',
      path: `/projects/${projectId}/clients`,
      body: {
        ...webClient,
        clientType: 'spa',
        redirectUris: ['https://rp.example.com/ok', 'http://rp.example.com/cb#frag', 'https://rp.example.com/x#y', 'https://rp.example.com/ok'],
        scopeWhitelist: ['profile', 'offline_access'],
      },
    });
    expect(response.body).toEqual({
      error: 'invalid_client_metadata',
      error_description: expect.any(String),
      field_errors: {
        redirectUris: 'must not contain duplicates',
        'redirectUris.1': `${FRAGMENT_RULE}; ${HTTPS_RULE}`,
        'redirectUris.2': FRAGMENT_RULE,
        scopeWhitelist: 'must contain openid; a spa client cannot have offline_access',
      },
    });
    const revision = await refusedOnBoth({
      method: 'PUT',
      path: `/projects/${projectId}/clients/${web.clientId}/revision`,
      body: { clientVersion: web.clientVersion, redirectUris: ['https://rp.example.com/cb'], postLogoutRedirectUris: ['ftp://rp.example.com/', 'http://rp.example.com/#x'], scopeWhitelist: ['email', 'admin'] },
    });
    expect(revision.body.field_errors).toEqual({
      'postLogoutRedirectUris.0': 'must be https, loopback http, or a private-use scheme such as com.example.app:/callback',
      'postLogoutRedirectUris.1': `${FRAGMENT_RULE}; ${HTTPS_RULE}`,
      scopeWhitelist: expect.stringMatching(/^unknown scope admin; allowed: .*; must contain openid$/),
    });
  });

  it('names an unknown field called constructor like any other, beside the other problems (no clash with Object.prototype)', async () => {
    const response = await refusedOnBoth({ method: 'POST', path: `/projects/${projectId}/clients`, body: { ...webClient, redirectUris: ['http://rp.example.com/cb'], constructor: 1 } });
    expect(response.body).toMatchObject({ error: 'invalid_request', field_errors: { constructor: 'is not a known field; remove it', 'redirectUris.0': HTTPS_RULE } });
  });

  it('judges metadata changes and revisions by the same rules; a revision follows the stored client type', async () => {
    const rename = await refusedOnBoth({ method: 'PATCH', path: `/projects/${projectId}/clients/${web.clientId}`, body: { clientVersion: web.clientVersion, displayName: '' } });
    expect(rename.body).toMatchObject({ error: 'invalid_client_metadata', field_errors: { displayName: 'must not be empty' } });
    const status = await refusedOnBoth({ method: 'PATCH', path: `/projects/${projectId}/clients/${web.clientId}`, body: { clientVersion: web.clientVersion, status: 'paused' } });
    expect(status.body).toMatchObject({ error: 'invalid_request', field_errors: { status: expect.any(String) } });

    const noRedirect = await refusedOnBoth({ method: 'PUT', path: `/projects/${projectId}/clients/${web.clientId}/revision`, body: { clientVersion: web.clientVersion, redirectUris: [], scopeWhitelist: ['openid'] } });
    expect(noRedirect.body).toMatchObject({ error: 'invalid_client_metadata', field_errors: { redirectUris: 'at least one redirect URI is required' } });
    const httpRedirect = await refusedOnBoth({
      method: 'PUT',
      path: `/projects/${projectId}/clients/${web.clientId}/revision`,
      body: { clientVersion: web.clientVersion, redirectUris: ['http://rp.example.com/cb'], scopeWhitelist: ['openid'] },
    });
    expect(httpRedirect.body.field_errors).toEqual({ 'redirectUris.0': HTTPS_RULE });
    // The spa rules need the stored type: the service applies them, in the same words.
    const spaOffline = await refusedOnBoth({
      method: 'PUT',
      path: `/projects/${projectId}/clients/${spa.clientId}/revision`,
      body: { clientVersion: spa.clientVersion, redirectUris: webClient.redirectUris, scopeWhitelist: ['openid', 'offline_access'] },
    });
    expect(spaOffline.body).toMatchObject({ error: 'invalid_client_metadata', field_errors: { scopeWhitelist: 'a spa client cannot have offline_access' } });
  });

  it('refuses a grace period out of range in the rule\'s words', async () => {
    for (const gracePeriodSeconds of [604_801, -1, 1.5]) {
      const response = await refusedOnBoth({ method: 'POST', path: `/projects/${projectId}/clients/${web.clientId}/secrets/rotate`, body: { clientVersion: web.clientVersion, gracePeriodSeconds } });
      expect(response.body).toMatchObject({ error: 'invalid_request', field_errors: { gracePeriodSeconds: GRACE_RULE } });
    }
    const atMost = await agent.call('POST', `/projects/${projectId}/clients/${web.clientId}/secrets/rotate`, { clientVersion: web.clientVersion, gracePeriodSeconds: 604_800 });
    expect(atMost.status).toBe(201);
  });

  it('gives the first-deployment import the same words for the same broken rule', async () => {
    const error = (await importClientsDocument(ctx.services, systemActor, { clients: [{ ...webClient, clientId: 'imported', clientSecret: 'a long enough secret', redirectUris: ['http://rp.example.com/cb'] }] })
      .catch((e: unknown) => e)) as { code: string; fieldErrors: Record<string, string> };
    expect(error.code).toBe('invalid_client_metadata');
    expect(error.fieldErrors).toEqual({ 'clients[0].redirectUris.0': HTTPS_RULE });
  });
});

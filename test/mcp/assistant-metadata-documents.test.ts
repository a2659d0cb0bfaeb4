import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/i18n/catalogues.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';
import { startLoopbackCallback, type LoopbackCallback } from '../helpers/loopback-callback.ts';
import { makeThrowawayTls, startMetadataDocumentServer, type MetadataDocumentServer, type ThrowawayTls } from '../helpers/metadata-document-server.ts';
import { startOidcTestServer } from '../helpers/oidc-server.ts';
import { ADMIN, agentOver, killAllSesame, startSesame, type SesameProcess } from '../helpers/sesame-process.ts';
import { authorizeAndConnect, mcpRequest, PreRegisteredAssistant, signInToConsentPage } from './assistant-client.ts';

/**
 * An MCP client Sesame has never heard of, as the official SDK drives one when it has only a client
 * metadata URL: no registration anywhere, the document served over HTTPS (a throwaway CA the Sesame
 * process trusts through NODE_EXTRA_CA_CERTS; its loopback host allowed by ASSISTANT_METADATA_ALLOWED_HOSTS).
 */
class MetadataDocumentAssistant extends PreRegisteredAssistant {
  readonly clientMetadataUrl: string;
  private information: OAuthClientInformationMixed | undefined;

  constructor(clientMetadataUrl: string, redirectUrl: string) {
    super('', redirectUrl);
    this.clientMetadataUrl = clientMetadataUrl;
  }

  override clientInformation(): OAuthClientInformationMixed {
    return this.information as OAuthClientInformationMixed;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }
}

type Structured = Record<string, any>;
const structured = (result: unknown) => (result as { structuredContent: Structured }).structuredContent;

const DOCUMENT_REFUSED = 'This assistant describes itself with a document Sesame cannot use';

describe.each(TEST_ENGINES)('an assistant known only by its client ID metadata document, on %s', (engine) => {
  let tls: ThrowawayTls;
  let documents: MetadataDocumentServer;
  let database: TestDatabase;
  let sesame: SesameProcess;
  let browser: Browser;
  let callback: LoopbackCallback;
  const documentUrl = () => documents.url('/assistant.json');
  const redirectUri = () => callback.redirectUri;

  beforeAll(async () => {
    tls = makeThrowawayTls();
    documents = await startMetadataDocumentServer(tls);
    callback = await startLoopbackCallback();
    const document = (path: string, changes: Record<string, unknown> = {}) => ({
      client_id: documents.url(path),
      client_name: 'Doc Assistant',
      client_uri: 'https://assistant.example.com',
      redirect_uris: [redirectUri()],
      token_endpoint_auth_method: 'none',
      ...changes,
    });
    documents.serve('/assistant.json', document('/assistant.json'));
    documents.serve('/mismatch.json', document('/mismatch.json', { client_id: documents.url('/somebody-else.json') }));
    documents.serve('/secret.json', document('/secret.json', { token_endpoint_auth_method: 'client_secret_basic' }));
    documents.serve('/moved.json', { status: 302, headers: { location: documents.url('/assistant.json') }, body: '' });
    documents.serve('/large.json', { body: JSON.stringify({ ...document('/large.json'), padding: 'x'.repeat(70 * 1024) }) });
    documents.serve('/broken.json', { body: '{"client_id": "not json' });
    documents.serve('/slow.json', { body: JSON.stringify(document('/slow.json')), delayMs: 8000 });
    database = await createTestDatabase(engine);
    sesame = await startSesame({
      databaseUrl: database.url,
      env: { NODE_EXTRA_CA_CERTS: tls.caPath, ASSISTANT_METADATA_ALLOWED_HOSTS: `localhost:${documents.port}` },
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await killAllSesame();
    await callback?.close();
    await documents?.close();
    await database?.drop();
    tls?.remove();
  });

  it('says so in discovery', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const metadata = await (await fetch(`${sesame.url}${path}`)).json();
      expect(metadata.client_id_metadata_document_supported).toBe(true);
      expect(metadata.registration_endpoint).toBeUndefined();
    }
  });

  it('connects the official MCP SDK given only a client metadata URL, through the real sign-in and consent pages, and calls a tool', async () => {
    const assistant = new MetadataDocumentAssistant(documentUrl(), redirectUri());
    const context = await browser.newContext();
    const page = await context.newPage();
    const mcp = await authorizeAndConnect(sesame.url, assistant, async (authorizationUrl) => {
      expect(authorizationUrl.searchParams.get('client_id')).toBe(documentUrl());
      expect(authorizationUrl.searchParams.get('resource')).toBe(`${sesame.url}/mcp`);
      const consent = await signInToConsentPage(page, authorizationUrl, ADMIN);
      expect(consent).toContain('Doc Assistant');
      expect(consent).toContain(`it describes itself at localhost:${documents.port}`);
      expect(consent).toContain('Make every change your role allows');
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await page.getByRole('heading', { name: 'You can close this window' }).waitFor();
      return callback.codes.at(-1)!;
    });
    await context.close();
    expect(assistant.tokens()?.scope?.split(' ')).toEqual(expect.arrayContaining(['sesame:read', 'sesame:write']));
    expect(assistant.tokens()?.refresh_token).toEqual(expect.any(String));

    expect(structured(await mcp.callTool({ name: 'whoAmI', arguments: {} })).user.account).toBe(ADMIN.account);
    const created = structured(await mcp.callTool({ name: 'createProject', arguments: { name: 'Made by a document assistant' } })).project;
    await mcp.close();

    // Listed like any other assistant, under the name the document had when the person consented.
    const admin = agentOver(sesame.url);
    const login = await admin.login();
    const adminSubject = login.body.user.subjectId as string;
    const consents = (await admin.call('GET', '/account/consents')).body.consents as Structured[];
    expect(consents.find((consent) => consent.clientId === documentUrl())).toMatchObject({ clientType: 'native', displayName: 'Doc Assistant', scopes: expect.arrayContaining(['sesame:write']) });
    const grants = (await admin.call('GET', '/admin/assistant-grants')).body.grants as Structured[];
    expect(grants.find((grant) => grant.clientId === documentUrl())).toMatchObject({ displayName: 'Doc Assistant', account: ADMIN.account });

    const trail = (await admin.call('GET', '/admin/audit-logs?limit=50')).body.auditLogs as Structured[];
    expect(trail.find((entry) => entry.action === 'assistant.connect')).toMatchObject({
      actorSubjectId: adminSubject,
      targetId: adminSubject,
      viaClientId: documentUrl(),
      viaClientName: 'Doc Assistant',
      after: { clientId: documentUrl(), clientName: 'Doc Assistant' },
    });
    const projectTrail = (await admin.call('GET', `/projects/${created.projectId}/audit-logs`)).body.auditLogs as Structured[];
    expect(projectTrail[0]).toMatchObject({ surface: 'mcp', viaClientId: documentUrl(), viaClientName: 'Doc Assistant' });

    // An administrator disconnects it like any other assistant: its token stops at once.
    const grantId = grants.find((grant) => grant.clientId === documentUrl())!.grantId as string;
    expect((await mcpRequest(sesame.url, assistant.tokens()!.access_token, 'tools/list')).status).toBe(200);
    expect((await admin.call('DELETE', `/admin/assistant-grants/${grantId}`)).status).toBe(204);
    expect((await mcpRequest(sesame.url, assistant.tokens()!.access_token, 'tools/list')).status).toBe(401);
  });

  /** An authorization request as an assistant sends it; the answer is read as it comes, redirects not followed. */
  async function authorize(clientId: string, changes: Record<string, string | undefined> = {}, language = 'en') {
    const verifier = randomBytes(32).toString('base64url');
    const params: Record<string, string | undefined> = {
      client_id: clientId,
      redirect_uri: redirectUri(),
      response_type: 'code',
      scope: 'sesame:read sesame:write',
      resource: `${sesame.url}/mcp`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'state-1',
      ...changes,
    };
    const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const response = await fetch(`${sesame.url}/auth?${query}`, { redirect: 'manual', headers: { 'accept-language': language } });
    return { status: response.status, location: response.headers.get('location'), type: response.headers.get('content-type') ?? '', body: await response.text() };
  }

  /** An error page of Sesame's own: a 4xx, in HTML, naming the problem, and nothing sent to the assistant. */
  function expectErrorPage(answer: Awaited<ReturnType<typeof authorize>>, message: string, detail: string | RegExp) {
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.location).toBeNull();
    expect(answer.type).toContain('text/html');
    expect(answer.body).toContain('role="alert"');
    expect(answer.body).toContain(message);
    expect(answer.body).toMatch(detail);
    expect(answer.body).not.toContain('code=');
  }

  it('refuses a document whose client_id is not its own URL, in English and in Chinese', async () => {
    expectErrorPage(await authorize(documents.url('/mismatch.json')), DOCUMENT_REFUSED, 'client_id does not match');
    expectErrorPage(await authorize(documents.url('/mismatch.json'), {}, 'zh-CN'), CATALOGUES['zh-CN']['error.assistantDocument'], 'client_id does not match');
  });

  it('refuses a redirect URI the document does not list (any port of its loopback URI is fine, another path is not)', async () => {
    expectErrorPage(await authorize(documentUrl(), { redirect_uri: `http://127.0.0.1:${callback.port}/elsewhere` }), 'an address it has not registered', 'redirect_uri');
    const otherPort = await authorize(documentUrl(), { redirect_uri: `http://127.0.0.1:${callback.port + 1}/callback` });
    expect(otherPort.status).toBe(303);
    expect(otherPort.location).toMatch(/\/interaction\//);
  });

  it('does not fetch a document from a private or loopback address that is not allowed', async () => {
    const before = documents.requests.length;
    // The same server by its IP address: 127.0.0.1:<port> is not in ASSISTANT_METADATA_ALLOWED_HOSTS.
    expectErrorPage(await authorize(`https://127.0.0.1:${documents.port}/assistant.json`), DOCUMENT_REFUSED, /private or loopback address.*ASSISTANT_METADATA_ALLOWED_HOSTS/);
    expect(documents.requests.length).toBe(before);
  });

  it('refuses a document that redirects, is too large, is not JSON, or wants a client secret', async () => {
    expectErrorPage(await authorize(documents.url('/moved.json')), DOCUMENT_REFUSED, 'Sesame follows no redirect');
    expectErrorPage(await authorize(documents.url('/large.json')), DOCUMENT_REFUSED, 'larger than 64 KiB');
    expectErrorPage(await authorize(documents.url('/broken.json')), DOCUMENT_REFUSED, 'fetch failed');
    expectErrorPage(await authorize(documents.url('/nowhere.json')), DOCUMENT_REFUSED, 'answered 404');
    expectErrorPage(await authorize(documents.url('/secret.json')), DOCUMENT_REFUSED, /shared-secret|token_endpoint_auth_method/);
  });

  it('gives up on a document that does not arrive within 5 s', async () => {
    const started = Date.now();
    expectErrorPage(await authorize(documents.url('/slow.json')), DOCUMENT_REFUSED, 'did not arrive within 5 s');
    expect(Date.now() - started).toBeLessThan(6500);
  });

  it('allows such an assistant only sesame:* and offline_access, with PKCE S256: anything else is an OAuth error sent back to it, never a code', async () => {
    const refusals = [
      [{ scope: 'openid sesame:read' }, 'invalid_scope'],
      [{ scope: 'profile email' }, 'invalid_scope'],
      [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
    ] as const;
    const fetches = () => documents.requests.filter((path) => path === '/assistant.json').length;
    const fetchesBefore = fetches();
    for (const [changes, error] of refusals) {
      const answer = await authorize(documentUrl(), changes);
      expect(answer.status, JSON.stringify(changes)).toBe(303);
      const location = new URL(answer.location!);
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri());
      expect(location.searchParams.get('error'), JSON.stringify(changes)).toBe(error);
      expect(location.searchParams.has('code')).toBe(false);
    }
    // The document is cached: four requests in a row fetch it at most once.
    expect(fetches() - fetchesBefore).toBeLessThanOrEqual(1);
  });

  it('asks for a resource: without one the request ends on an error page, never a consent', async () => {
    expectErrorPage(await authorize(documentUrl(), { resource: undefined }), 'without saying which Sesame service it wants', 'resource is required');
    expectErrorPage(await authorize(documentUrl(), { resource: undefined, scope: 'offline_access' }), 'without saying which Sesame service it wants', 'resource is required');
  });
});

describe.each(TEST_ENGINES)('with ASSISTANT_METADATA_DOCUMENTS=off, on %s', (engine) => {
  it('does not advertise the feature and refuses a metadata document client on an error page', async () => {
    const server = await startOidcTestServer(engine, { ASSISTANT_METADATA_DOCUMENTS: 'off' });
    try {
      const metadata = await (await fetch(`${server.issuer}/.well-known/openid-configuration`)).json();
      expect(metadata.client_id_metadata_document_supported).toBeUndefined();
      const query = new URLSearchParams({
        client_id: 'https://assistant.example.com/client.json',
        redirect_uri: 'http://127.0.0.1:4000/callback',
        response_type: 'code',
        scope: 'sesame:read',
        resource: `${server.issuer}/mcp`,
        code_challenge: createHash('sha256').update('verifier-verifier-verifier-verifier-verifier').digest('base64url'),
        code_challenge_method: 'S256',
      });
      const response = await fetch(`${server.issuer}/auth?${query}`, { redirect: 'manual' });
      const body = await response.text();
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(body).toContain(DOCUMENT_REFUSED);
      expect(body).toContain('ASSISTANT_METADATA_DOCUMENTS=off');
    } finally {
      await server.close();
    }
  });
});

afterAll(() => killAllSesame());

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';
import type { Actor } from '../../src/domain/actor.ts';
import type { Scope } from '../../src/domain/clients.ts';
import type { Services } from '../../src/services/index.ts';
import { csrfTokenOf, isConsentPage, isLoginPage, OidcUserAgent } from '../helpers/oidc-user-agent.ts';

/**
 * An assistant's OAuth state as the MCP SDK keeps it: a pre-registered native client (no dynamic
 * registration), the PKCE verifier, the tokens, and the authorization URL the SDK asked to open.
 */
export class PreRegisteredAssistant implements OAuthClientProvider {
  readonly clientId: string;
  readonly redirectUrl: string;
  authorizationUrl: URL | undefined;
  private verifier = '';
  private saved: OAuthTokens | undefined;

  constructor(clientId: string, redirectUrl: string) {
    this.clientId = clientId;
    this.redirectUrl = redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [this.redirectUrl], client_name: 'Test assistant', grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  clientInformation(): OAuthClientInformationMixed {
    return { client_id: this.clientId };
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

export const mcpUrl = (issuer: string) => new URL(`${issuer}/mcp`);

/** An administrator registers the assistant once, for everybody: a native client on loopback, any port at sign-in. Returns its client id. */
export async function registerAssistant(services: Services, actor: Actor, projectId: string, options: { displayName?: string; scopeWhitelist?: Scope[] } = {}): Promise<string> {
  const { client } = await services.clients.registerClient(actor, projectId, {
    clientType: 'native',
    displayName: options.displayName ?? 'Claude Code',
    redirectUris: ['http://127.0.0.1/callback'],
    scopeWhitelist: options.scopeWhitelist ?? ['openid'],
  });
  return client.clientId;
}

/** One JSON-RPC request to /mcp with a bearer token, as a raw HTTP client sends it. */
export async function mcpRequest(issuer: string, token: string, method: string, params: Record<string, unknown> = {}) {
  const response = await fetch(`${issuer}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: (await response.json()) as Record<string, any> };
}

export async function connectedClient(issuer: string, provider: PreRegisteredAssistant): Promise<Client> {
  const client = new Client({ name: 'sesame-test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(issuer), { authProvider: provider }));
  return client;
}

/**
 * The first connection: the SDK discovers everything from the 401, and asks to open the
 * authorization URL; `signIn` plays the person (browser) and returns the code that reached the
 * redirect URI; the SDK exchanges it (with `resource`) and connects again.
 */
export async function authorizeAndConnect(issuer: string, provider: PreRegisteredAssistant, signIn: (authorizationUrl: URL) => Promise<string>): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(issuer), { authProvider: provider });
  const first = new Client({ name: 'sesame-test-assistant', version: '1.0.0' });
  await first.connect(transport).then(
    () => {
      throw new Error('connected without signing in');
    },
    (error: Error) => {
      if (!(error instanceof UnauthorizedError)) throw error;
    },
  );
  if (!provider.authorizationUrl) throw new Error('the SDK did not ask to open an authorization URL');
  const code = await signIn(provider.authorizationUrl);
  await transport.finishAuth(code);
  return connectedClient(issuer, provider);
}

/**
 * An assistant that asks for a scope itself, rather than the 401's default (an administrator's assistant
 * asking for sesame:admin): the SDK's own OAuth functions, discovery from the resource's metadata.
 */
export async function authorizeWithScope(issuer: string, provider: PreRegisteredAssistant, scope: string, signIn: (authorizationUrl: URL) => Promise<string>, resource = 'mcp'): Promise<void> {
  const serverUrl = new URL(`${issuer}/${resource}`);
  if ((await auth(provider, { serverUrl, scope })) !== 'REDIRECT') throw new Error('the SDK did not ask to open an authorization URL');
  if ((await auth(provider, { serverUrl, authorizationCode: await signIn(provider.authorizationUrl!) })) !== 'AUTHORIZED') throw new Error('the SDK did not redeem the code');
}

/** The person, in a real browser: opens the authorization URL, signs in on Sesame's page and waits for the consent page; its text. */
export async function signInToConsentPage(page: Page, authorizationUrl: URL, person: { account: string; password: string }): Promise<string> {
  await page.goto(authorizationUrl.href);
  await page.getByLabel('Account').fill(person.account);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Allow this assistant?' }).waitFor();
  return page.locator('main').innerText();
}

/** The person, without a real browser: signs in and answers the consent page with the given button (its HTML goes to `consentPages`). */
export function signInOverHttp(issuer: string, person: { account: string; password: string }, access: 'requested' | 'read' = 'requested', agent = new OidcUserAgent(issuer), consentPages: string[] = []) {
  return async (authorizationUrl: URL): Promise<string> => {
    let page = await agent.follow(authorizationUrl.href);
    for (let step = 0; step < 4 && (isLoginPage(page) || isConsentPage(page)); step += 1) {
      if (isLoginPage(page)) {
        const action = /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)![1]!;
        page = await agent.follow(action, { form: { csrf: csrfTokenOf(page), account: person.account, password: person.password } });
      } else {
        consentPages.push(page.body);
        const uid = /action="\/interaction\/([^"/]+)\/confirm"/.exec(page.body)![1]!;
        page = await agent.follow(`/interaction/${uid}/confirm`, { form: { csrf: csrfTokenOf(page), access } });
      }
    }
    const code = page.location ? new URL(page.location).searchParams.get('code') : null;
    if (!code) throw new Error(`no code: ${page.status} ${page.location ?? ''} ${page.body.slice(0, 300)}`);
    return code;
  };
}

/**
 * The person of the OIDC fixture connects a fresh assistant (a native client of the fixture's project, registered
 * by the administrator) through the real sign-in and consent pages; the connected SDK client.
 */
export async function connectFixtureAssistant(server: { issuer: string; services: Services }, fixture: { adminActor: Actor; projectId: string }, person: { account: string; password: string }, callbackPort: number): Promise<Client> {
  const { client } = await server.services.clients.registerClient(fixture.adminActor, fixture.projectId, {
    clientType: 'native',
    displayName: 'Test assistant',
    redirectUris: ['http://127.0.0.1/callback'],
    scopeWhitelist: ['openid'],
  });
  return authorizeAndConnect(server.issuer, new PreRegisteredAssistant(client.clientId, `http://127.0.0.1:${callbackPort}/callback`), signInOverHttp(server.issuer, person));
}

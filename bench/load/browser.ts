import { createHash, randomBytes } from 'node:crypto';
import { CookieJar, HttpConnection, type HttpResponse } from './http-connection.ts';
import { ProtocolError, expectStatus } from './protocol-error.ts';
import type { OidcFixture, Person } from './targets.ts';

/** A browser of one person: its connection and its cookies; it never follows redirects on its own. */
export class Browser {
  readonly connection: HttpConnection;
  jar: CookieJar;

  constructor(connection: HttpConnection, jar = new CookieJar()) {
    this.connection = connection;
    this.jar = jar;
  }

  async get(path: string): Promise<HttpResponse> {
    return this.send('GET', path);
  }

  async postForm(path: string, form: Record<string, string>): Promise<HttpResponse> {
    return this.send('POST', path, new URLSearchParams(form).toString());
  }

  private async send(method: string, path: string, body?: string): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = this.jar.header(path);
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await this.connection.send({ method, path, headers, ...(body === undefined ? {} : { body }) });
    this.jar.remember(response, path);
    return response;
  }
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

export interface AuthorizationRequest {
  path: string;
  state: string;
  codeVerifier: string;
}

/** An authorization request with PKCE S256, state and nonce, as a careful relying party makes it. */
export function authorizationRequest(fixture: OidcFixture, scope: string, extra: Record<string, string> = {}): AuthorizationRequest {
  const codeVerifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const query = new URLSearchParams({
    client_id: fixture.client.clientId,
    response_type: 'code',
    redirect_uri: fixture.client.redirectUri,
    scope,
    state,
    nonce: base64url(randomBytes(16)),
    code_challenge: base64url(createHash('sha256').update(codeVerifier).digest()),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { path: `/auth?${query.toString()}`, state, codeVerifier };
}

/** The code in a redirect to the relying party, checked against the request's state. */
export function codeFromCallback(fixture: OidcFixture, response: HttpResponse, request: AuthorizationRequest): string {
  const location = response.headers.location;
  if (response.status < 300 || response.status > 399 || !location) throw new ProtocolError(`expected a redirect with a code, got ${response.status}`, response);
  const url = new URL(location, fixture.baseUrl);
  if (`${url.origin}${url.pathname}` !== fixture.client.redirectUri) throw new ProtocolError(`redirect to ${url.origin}${url.pathname}, not the client's redirect URI`, response);
  const error = url.searchParams.get('error');
  if (error) throw new ProtocolError(`authorization error ${error}: ${url.searchParams.get('error_description') ?? ''}`, response);
  const code = url.searchParams.get('code');
  if (!code || url.searchParams.get('state') !== request.state) throw new ProtocolError('redirect without a code or with a wrong state', response);
  return code;
}

const LOGIN_FORM = /action="(\/interaction\/[^"/]+\/login)"/;
const CONSENT_FORM = /action="(\/interaction\/[^"/]+\/confirm)"/;
const CSRF_FIELD = /name="csrf" value="([^"]+)"/;

export interface PendingLogin {
  /** The login form's action and CSRF token, and the cookies binding this browser to its interaction. */
  action: string;
  csrf: string;
  jar: CookieJar;
  request: AuthorizationRequest;
}

/**
 * Walks the provider's pages as a person would: follows redirects while they stay on the provider,
 * fills in the login form (when `person` is given) and allows the consent page. Stops at the
 * redirect to the relying party, or, without `person`, at the login page.
 */
export async function walkToCallback(browser: Browser, fixture: OidcFixture, request: AuthorizationRequest, person?: Person): Promise<HttpResponse> {
  let response = await browser.get(request.path);
  for (let step = 0; step < 12; step += 1) {
    if (response.status >= 300 && response.status < 400 && response.headers.location) {
      const next = new URL(response.headers.location, fixture.baseUrl);
      if (next.origin !== fixture.baseUrl) return response;
      response = await browser.get(`${next.pathname}${next.search}`);
      continue;
    }
    if (response.status !== 200) throw new ProtocolError(`unexpected ${response.status} on the way to the code`, response);
    const login = LOGIN_FORM.exec(response.body);
    const consent = CONSENT_FORM.exec(response.body);
    const csrf = CSRF_FIELD.exec(response.body)?.[1];
    if (login?.[1] && csrf) {
      if (!person) return response;
      response = await browser.postForm(login[1], { csrf, account: person.account, password: person.password });
    } else if (consent?.[1] && csrf) {
      response = await browser.postForm(consent[1], { csrf });
    } else {
      throw new ProtocolError('a page that is neither the login nor the consent page', response);
    }
  }
  throw new ProtocolError('too many steps on the way to the code', response);
}

/** Opens an authorization request in a fresh browser and stops at the login page: a sign-in ready to post. */
export async function openLoginPage(browser: Browser, fixture: OidcFixture, scope: string): Promise<PendingLogin> {
  const request = authorizationRequest(fixture, scope);
  const page = await walkToCallback(browser, fixture, request);
  const action = LOGIN_FORM.exec(page.body)?.[1];
  const csrf = CSRF_FIELD.exec(page.body)?.[1];
  expectStatus(page, 200, 'the login page');
  if (!action || !csrf) throw new ProtocolError('no login form', page);
  return { action, csrf, jar: browser.jar, request };
}

export function basicAuthorization(clientId: string, clientSecret: string): string {
  // RFC 6749 2.3.1: both parts form-encoded before Base64.
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
}

/** A token endpoint call as a web client (client_secret_basic); anything but a 200 with tokens is a protocol error. */
export async function tokenRequest(connection: HttpConnection, fixture: OidcFixture, form: Record<string, string>): Promise<TokenResponse> {
  const response = await connection.send({
    method: 'POST',
    path: '/token',
    headers: {
      authorization: basicAuthorization(fixture.client.clientId, fixture.client.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams(form).toString(),
  });
  expectStatus(response, 200, `the token endpoint (${form.grant_type})`);
  const tokens = JSON.parse(response.body) as TokenResponse;
  if (!tokens.access_token || tokens.token_type !== 'Bearer') throw new ProtocolError('token response without a Bearer access token', response);
  return tokens;
}

export function redeemCode(connection: HttpConnection, fixture: OidcFixture, code: string, request: AuthorizationRequest): Promise<TokenResponse> {
  return tokenRequest(connection, fixture, { grant_type: 'authorization_code', code, redirect_uri: fixture.client.redirectUri, code_verifier: request.codeVerifier });
}

/** Signs a new browser in (login page, consent if asked) and returns it with its session cookie. */
export async function signedInBrowser(connection: HttpConnection, fixture: OidcFixture, scope: string): Promise<Browser> {
  const browser = new Browser(connection);
  const request = authorizationRequest(fixture, scope);
  codeFromCallback(fixture, await walkToCallback(browser, fixture, request, fixture.person), request);
  return browser;
}

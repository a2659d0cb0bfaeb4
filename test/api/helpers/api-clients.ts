import type { FastifyInstance } from 'fastify';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiResponse {
  status: number;
  /** Parsed JSON; tests read its fields freely. */
  body: any;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

/** Called with every response, e.g. to check it against the OpenAPI document. */
export type ResponseObserver = (call: { method: Method; path: string; response: ApiResponse }) => void;

export interface RawRequest {
  method: Method;
  path: string;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
}

async function send(app: FastifyInstance, prefix: string, request: RawRequest, observe?: ResponseObserver): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers };
  const payload = request.payload ?? (request.body !== undefined ? JSON.stringify(request.body) : undefined);
  const injected = await app.inject({ method: request.method, url: `${prefix}${request.path}`, headers, ...(payload !== undefined ? { payload } : {}) });
  const text = injected.body;
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const response: ApiResponse = { status: injected.statusCode, body, text, headers: injected.headers };
  observe?.({ method: request.method, path: request.path, response });
  return response;
}

/** An Agent API caller holding one bearer token, as an AI assistant or a script would. */
export function createAgentClient(app: FastifyInstance, observe?: ResponseObserver) {
  let token: string | undefined;
  const client = {
    get token() {
      return token;
    },
    set token(value: string | undefined) {
      token = value;
    },
    request(request: RawRequest) {
      return send(app, '/api/agent', { ...request, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...request.headers } }, observe);
    },
    call(method: Method, path: string, body?: unknown) {
      return client.request({ method, path, ...(body !== undefined ? { body } : {}) });
    },
    async login(account: string, password: string) {
      const response = await client.call('POST', '/auth/login', { account, password });
      if (response.status !== 200) throw new Error(`agent login of ${account} failed: ${response.status} ${response.text}`);
      token = response.body.accessToken;
      return response;
    },
  };
  return client;
}

export type AgentClient = ReturnType<typeof createAgentClient>;

/** A browser console: a cookie jar and the CSRF token, sent with writes unless a test leaves it out. */
export function createConsoleClient(app: FastifyInstance, observe?: ResponseObserver) {
  const jar = new Map<string, string>();
  let csrfToken: string | undefined;

  function keepCookies(headers: ApiResponse['headers']) {
    const setCookie = headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [String(setCookie)] : []) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /^max-age=0$/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }

  const client = {
    jar,
    get csrfToken() {
      return csrfToken;
    },
    set csrfToken(value: string | undefined) {
      csrfToken = value;
    },
    async request(request: RawRequest & { withCsrf?: boolean }) {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const withCsrf = request.withCsrf ?? request.method !== 'GET';
      const response = await send(
        app,
        '/api/management',
        { ...request, headers: { ...(cookie ? { cookie } : {}), ...(withCsrf && csrfToken ? { 'x-csrf-token': csrfToken } : {}), ...request.headers } },
        observe,
      );
      keepCookies(response.headers);
      return response;
    },
    call(method: Method, path: string, body?: unknown) {
      return client.request({ method, path, ...(body !== undefined ? { body } : {}) });
    },
    async context() {
      const response = await client.call('GET', '/auth/context');
      csrfToken = response.body?.csrfToken;
      return response;
    },
    async login(account: string, password: string) {
      await client.context();
      const response = await client.call('POST', '/auth/login', { account, password });
      if (response.status !== 200) throw new Error(`console login of ${account} failed: ${response.status} ${response.text}`);
      csrfToken = response.body.csrfToken;
      return response;
    },
  };
  return client;
}

export type ConsoleClient = ReturnType<typeof createConsoleClient>;

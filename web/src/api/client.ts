import type { SessionContext } from './types.ts';

const API_BASE = '/api/management';

/** An error response of the management API (DESIGN.md section 5), or a network failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: Record<string, string>;

  constructor(status: number, code: string, description: string, fieldErrors: Record<string, string> = {}) {
    super(description);
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

let csrfToken = '';
let sessionExpiredHandler: (() => void) | undefined;

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when a request meets 401 login_required: the session ended while the page was open. */
export function onSessionExpired(handler: () => void): void {
  sessionExpiredHandler = handler;
}

export async function fetchSessionContext(): Promise<SessionContext> {
  const context = await send<SessionContext>('GET', '/auth/context', undefined, { expectSession: false });
  setCsrfToken(context.csrfToken);
  return context;
}

interface SendOptions {
  /** False for calls that are fine without a session (context, login): a 401 there is not an expiry. */
  expectSession?: boolean;
  retriedCsrf?: boolean;
}

async function send<T>(method: string, path: string, body: unknown, options: SendOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;

  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Sesame could not be reached. Check your connection and try again.');
  }

  if (response.status === 204) return undefined as T;
  const payload = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (response.ok) return payload as T;

  const error = new ApiError(
    response.status,
    typeof payload?.error === 'string' ? payload.error : 'http_error',
    typeof payload?.error_description === 'string' ? payload.error_description : `The server answered ${response.status}. Try again.`,
    (payload?.field_errors as Record<string, string> | undefined) ?? {},
  );
  // A stale CSRF token (e.g. the session was renewed in another tab): fetch the current one and try once more.
  if (error.code === 'csrf_failed' && !options.retriedCsrf && method !== 'GET') {
    await fetchSessionContext();
    return send<T>(method, path, body, { ...options, retriedCsrf: true });
  }
  if (error.code === 'login_required' && options.expectSession !== false) sessionExpiredHandler?.();
  throw error;
}

export const api = {
  get: <T>(path: string) => send<T>('GET', path, undefined),
  post: <T>(path: string, body?: unknown) => send<T>('POST', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => send<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => send<T>('PUT', path, body),
  delete: <T>(path: string, body?: unknown) => send<T>('DELETE', path, body),
  login: <T>(account: string, password: string) => send<T>('POST', '/auth/login', { account, password }, { expectSession: false }),
  logout: () => send<void>('POST', '/auth/logout', undefined, { expectSession: false }),
};

export const segment = (value: string) => encodeURIComponent(value);

import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema.ts';
import type { SessionContext } from './types.ts';

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

const networkError = () => new ApiError(0, 'network_error', 'Sesame could not be reached. Check your connection and try again.');

let csrfToken = '';
let sessionExpiredHandler: (() => void) | undefined;

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

let reauthenticationHandler: (() => Promise<boolean>) | undefined;

/**
 * Called when a person-only request (password, factors, email, linked identities) meets 403
 * reauthentication_required: the handler asks the person to prove it is them (POST /account/reauthenticate)
 * and answers whether they did; the request is then sent once more, so the original action completes.
 */
export function onReauthenticationRequired(handler: () => Promise<boolean>): void {
  reauthenticationHandler = handler;
}

/** Called when a request meets 401 login_required: the session ended while the page was open. */
export function onSessionExpired(handler: () => void): void {
  sessionExpiredHandler = handler;
}

// Fine without a session, so a 401 there is not an expiry.
const SESSIONLESS_PATHS = new Set(['/auth/context', '/auth/login', '/auth/logout']);

async function errorCode(response: Response): Promise<string | undefined> {
  if (response.ok) return undefined;
  const payload = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return typeof payload?.error === 'string' ? payload.error : undefined;
}

/** Copies of state-changing requests in flight, kept to send once more after a csrf_failed. */
const resendable = new Map<string, Request>();

const consoleSession: Middleware = {
  onRequest({ request, id }) {
    request.headers.set('accept', 'application/json');
    if (request.method !== 'GET') {
      if (csrfToken) request.headers.set('x-csrf-token', csrfToken);
      resendable.set(id, request.clone());
    }
    return request;
  },
  async onResponse({ response, schemaPath, id }) {
    let answer = response;
    const copy = resendable.get(id);
    resendable.delete(id);
    // A stale CSRF token (e.g. the session was renewed in another tab): fetch the current one and try once more.
    if (copy && (await errorCode(answer)) === 'csrf_failed') {
      await fetchSessionContext();
      copy.headers.set('x-csrf-token', csrfToken);
      answer = await fetch(copy.clone()).catch(() => {
        throw networkError();
      });
    }
    // Too long since this session proved the person: ask them again, then finish what they asked for.
    if (copy && reauthenticationHandler && (await errorCode(answer)) === 'reauthentication_required' && (await reauthenticationHandler())) {
      const again = copy.clone();
      again.headers.set('x-csrf-token', csrfToken);
      answer = await fetch(again).catch(() => {
        throw networkError();
      });
    }
    if (!SESSIONLESS_PATHS.has(schemaPath) && (await errorCode(answer)) === 'login_required') sessionExpiredHandler?.();
    return answer;
  },
  onError({ id }) {
    resendable.delete(id);
    return networkError();
  },
};

/** The Management API, typed by the contract generated from its OpenAPI document (`npm run openapi:sync`). */
export const api = createClient<paths>({ baseUrl: '/api/management' });
api.use(consoleSession);

/** The data of a successful answer; an error answer becomes an ApiError. */
export async function unwrap<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (response.ok) return data as T;
  const payload = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  throw new ApiError(
    response.status,
    typeof payload.error === 'string' ? payload.error : 'http_error',
    typeof payload.error_description === 'string' ? payload.error_description : `The server answered ${response.status}. Try again.`,
    (payload.field_errors as Record<string, string> | undefined) ?? {},
  );
}

export async function fetchSessionContext(): Promise<SessionContext> {
  const context = await unwrap(api.GET('/auth/context'));
  setCsrfToken(context.csrfToken);
  return context;
}

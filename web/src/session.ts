import { useEffect, useState } from 'preact/hooks';
import { api, fetchSessionContext, onSessionExpired, setCsrfToken, unwrap } from './api/client.ts';
import type { operations } from './api/schema.ts';
import type { SecretPolicy, SessionUser } from './api/types.ts';
import { SECRET_POLICY } from '../../src/domain/clients.ts';
import { currentLocation, currentTarget, navigate } from './router.ts';
import { followSavedLocale, t } from './i18n.ts';

export interface SessionState {
  status: 'loading' | 'signed-out' | 'signed-in';
  user: SessionUser | null;
  secretPolicy: SecretPolicy;
  /** Why the person is on the sign-in page, e.g. their session ended. */
  notice: string | null;
  /** Signed out: the upstream providers offered as "Continue with". */
  signInProviders: { name: string; displayName: string }[];
  /** Signed in, by a person the second-factor policy requires to add one first: the session may only enrol. */
  enrolmentRequired: boolean;
}

/** Where the console takes a person who must add a second factor: My account's second-factor section. */
export const ENROLMENT_PATH = '/account/security';

let state: SessionState = {
  status: 'loading',
  user: null,
  secretPolicy: { defaultGraceSeconds: SECRET_POLICY.defaultGraceSeconds, maxGraceSeconds: SECRET_POLICY.maxGraceSeconds },
  notice: null,
  signInProviders: [],
  enrolmentRequired: false,
};
const listeners = new Set<() => void>();

function update(changes: Partial<SessionState>): void {
  state = { ...state, ...changes };
  listeners.forEach((listener) => listener());
}

export function useSession(): SessionState {
  const [snapshot, setSnapshot] = useState(state);
  useEffect(() => {
    const listener = () => setSnapshot(state);
    listeners.add(listener);
    setSnapshot(state);
    return () => void listeners.delete(listener);
  }, []);
  return snapshot;
}

export function sessionUser(): SessionUser | null {
  return state.user;
}

/** Where to go once signed in: the page asked for, or enrolment for a person who must add a second factor first. */
export function afterSignIn(next: string): string {
  return state.enrolmentRequired ? ENROLMENT_PATH : next;
}

/** Asks the server who is signed in; also fetches the CSRF (or login-CSRF) token. */
export async function loadSession(): Promise<void> {
  const context = await fetchSessionContext();
  followSavedLocale(context.locale);
  if (context.authenticated && context.user) {
    update({ status: 'signed-in', user: context.user, secretPolicy: context.clientSecretPolicy ?? state.secretPolicy, enrolmentRequired: context.enrolmentRequired === true });
  } else {
    update({ status: 'signed-out', user: null, signInProviders: context.signInProviders ?? [], enrolmentRequired: false });
  }
}

/** `otp`: the authenticator's code or a recovery code, for a person with a second factor (else 401 mfa_required). */
export async function signIn(account: string, password: string, otp?: string): Promise<void> {
  await unwrap(api.POST('/auth/login', { body: { account, password, ...(otp ? { otp } : {}) } }));
  // The session has its own CSRF token, different from the login-CSRF token.
  await loadSession();
  update({ notice: null });
}

/** Signs in with a passkey: options for this browser, the browser's answer, then the session cookie. */
export async function signInWithPasskey(): Promise<void> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const options = await unwrap(api.POST('/auth/passkey/options'));
  const answer = await startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  await unwrap(api.POST('/auth/passkey', { body: { response: answer as unknown as PasskeyAnswer } }));
  await loadSession();
  update({ notice: null });
}

/** Sends the browser to an upstream provider; it comes back to the sign-in page with `?upstream=`, which calls finishUpstreamSignIn. */
export async function startUpstreamSignIn(name: string, next: string): Promise<void> {
  const { authorizationUrl } = await unwrap(api.POST('/auth/upstream/{name}/start', { params: { path: { name } }, body: next === '/' ? {} : { next } }));
  window.location.assign(authorizationUrl);
}

/** Signs in the browser an upstream provider returned; `otp` for a person with a second factor (else 401 mfa_required). */
export async function finishUpstreamSignIn(otp?: string): Promise<void> {
  await unwrap(api.POST('/auth/upstream/finish', { body: otp ? { otp } : {} }));
  await loadSession();
  update({ notice: null });
}

type PasskeyAnswer = operations['passkeyLogin']['requestBody']['content']['application/json']['response'];

export async function signOut(): Promise<void> {
  try {
    await unwrap(api.POST('/auth/logout'));
  } finally {
    setCsrfToken('');
    update({ status: 'signed-out', user: null, notice: t('console.session.signedOut') });
    navigate('/sign-in', { replace: true });
    await loadSession().catch(() => undefined);
  }
}

/** Sends the person to sign in, remembering where they were so they come back to it. */
export function requireSignIn(notice: string | null, options: { renewToken?: boolean } = {}): void {
  const onSignIn = currentLocation().path === '/sign-in';
  const next = onSignIn ? currentLocation().query.get('next') : currentTarget();
  update({ status: 'signed-out', user: null, notice });
  navigate(next && next !== '/' ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in', { replace: true });
  // After an expiry the old CSRF token is dead; a fresh context brings the login-CSRF token.
  if (options.renewToken) void loadSession().catch(() => undefined);
}

onSessionExpired(() => {
  if (state.status === 'signed-in') requireSignIn(t('console.session.ended'), { renewToken: true });
});

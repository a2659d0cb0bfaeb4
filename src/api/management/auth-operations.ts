import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBase62 } from '../../domain/ids.ts';
import type { LoginResult } from '../../services/sign-in/sessions.ts';
import { AppError } from '../../errors.ts';
import { isLocale, type Locale } from '../../i18n/locales.ts';
import {
  consoleContextResponse,
  consoleLoginResponse,
  loginRequest,
  passkeyLoginOptionsResponse,
  passkeyLoginRequest,
  presentSecretPolicy,
  presentSessionUser,
  upstreamFinishRequest,
  upstreamLoginRequest,
  upstreamLoginResponse,
  whoAmIResponse,
} from '../contracts/auth.ts';
import { identityProviderParams } from '../contracts/identity-providers.ts';
import { consoleBrowserKey, UpstreamSignInStopped } from '../../services/upstream/oidc-upstream-sign-in.ts';
import { exampleSessionUser } from '../contracts/examples.ts';
import { defineOperation, type AnyOperation } from '../operation.ts';
import type { DeviceCookie } from '../../security/device-cookie.ts';
import { CSRF_HEADER } from './cookie-auth.ts';
import type { ConsoleCookies } from './console-cookies.ts';
import type { CsrfTokens } from './csrf.ts';

const tag = 'Authentication';
const LOGIN_CSRF_LIFETIME_SECONDS = 3600;
const exampleSecretPolicy = presentSecretPolicy();
const exampleCsrfToken = 'q3VbX0n8Zk2mT7pLr4sW9yC1dF6hJ5gE8aU2iO0kQ1w';

const savedLocale = (locale: string | null | undefined): Locale | null => (isLocale(locale) ? locale : null);
const headerValue = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/** Console sign-in, context, logout and who-am-I: they differ from the Agent API's only in carrying a cookie instead of a token. */
export function consoleAuthOperations(cookies: ConsoleCookies, csrf: CsrfTokens, device: DeviceCookie): AnyOperation[] {
  /** The login-CSRF nonce of this browser, when the request carries its token. */
  function requireLoginCsrf(request: FastifyRequest): string {
    const nonce = cookies.read(request, 'loginCsrf');
    if (!nonce || !csrf.verifyLogin(nonce, headerValue(request.headers[CSRF_HEADER]))) {
      throw new AppError('csrf_failed', 'Fetch GET /api/management/auth/context first and send its csrfToken in the X-CSRF-Token header, with the cookie it sets.');
    }
    return nonce;
  }

  // A passkey sign-in's challenge belongs to the browser that asked for it: its login-CSRF cookie.
  const passkeyCeremony = (nonce: string) => `console:${nonce}`;

  function signedIn(reply: FastifyReply, { token, expiresIn, user, enrolmentRequired }: LoginResult) {
    cookies.set(reply, 'session', token, expiresIn);
    void reply.header('set-cookie', device.issue(user.subjectId));
    cookies.clear(reply, 'loginCsrf');
    return { expiresIn, csrfToken: csrf.forSession(token), user: presentSessionUser(user), clientSecretPolicy: presentSecretPolicy(), enrolmentRequired };
  }

  const getContext = defineOperation({
    operationId: 'getConsoleContext',
    method: 'GET',
    path: '/auth/context',
    tag,
    summary: 'Console session and CSRF token',
    description:
      'Signed in: the user and the session\'s CSRF token for the X-CSRF-Token header. Signed out: `authenticated: false` and a login-CSRF token, ' +
      'also set as a cookie, which `POST /auth/login` needs in X-CSRF-Token.',
    access: 'public',
    security: [{}, { sessionCookie: [] }],
    response: {
      status: 200,
      description: 'Whether a session is active, and the CSRF token to use next.',
      schema: consoleContextResponse,
      example: { authenticated: true, csrfToken: exampleCsrfToken, user: exampleSessionUser, clientSecretPolicy: exampleSecretPolicy, locale: null, enrolmentRequired: false },
    },
    errors: [],
    async handle({ services, request, reply }) {
      const token = cookies.read(request, 'session');
      const authenticated = token ? await services.sessions.authenticate(token, 'console') : null;
      if (token && authenticated) {
        return {
          authenticated: true,
          csrfToken: csrf.forSession(token),
          user: presentSessionUser(authenticated.user),
          clientSecretPolicy: presentSecretPolicy(),
          locale: savedLocale(authenticated.user.locale),
          enrolmentRequired: authenticated.session.enrolmentRequired,
        };
      }
      let nonce = cookies.read(request, 'loginCsrf');
      if (!nonce) {
        nonce = randomBase62(32);
        cookies.set(reply, 'loginCsrf', nonce, LOGIN_CSRF_LIFETIME_SECONDS);
      }
      const { choices } = await services.upstreamSignIns.choices();
      return { authenticated: false, csrfToken: csrf.forLogin(nonce), signInProviders: choices };
    },
  });

  const login = defineOperation({
    operationId: 'login',
    method: 'POST',
    path: '/auth/login',
    tag,
    summary: 'Sign in to the console',
    description:
      'Checks the account and password and sets the HttpOnly session cookie (no token in the body). Needs the login-CSRF token from ' +
      '`GET /auth/context` in X-CSRF-Token, with its cookie. The answer carries the session\'s CSRF token for later writes. ' +
      'With `enrolmentRequired: true` the session may only add a second factor (My account) until the person signs in again with it. ' +
      'It also sets a signed device cookie: a browser that signed in as a person before is not slowed down by wrong passwords others send for that account.',
    access: 'public',
    security: [{ loginCsrfCookie: [], csrfHeader: [] }],
    body: loginRequest,
    bodyExample: { account: 'alice', password: 'correct horse battery staple' },
    response: {
      status: 200,
      description: 'Signed in; the session cookie is set.',
      schema: consoleLoginResponse,
      example: { expiresIn: 86400, csrfToken: exampleCsrfToken, user: exampleSessionUser, clientSecretPolicy: exampleSecretPolicy, enrolmentRequired: false },
    },
    errors: ['csrf_failed', 'invalid_credentials', 'forbidden', 'mfa_required', 'rate_limited', 'directory_unavailable'],
    async handle({ services, body, request, reply }) {
      requireLoginCsrf(request);
      const deviceSubject = device.subjectOf(request.headers.cookie);
      return signedIn(reply, await services.sessions.login(body.account, body.password, { kind: 'console', ip: request.ip, deviceSubject, otp: body.otp }));
    },
  });

  const passkeyLoginOptions = defineOperation({
    operationId: 'passkeyLoginOptions',
    method: 'POST',
    path: '/auth/passkey/options',
    tag,
    summary: 'Start signing in to the console with a passkey',
    description:
      'WebAuthn request options for any passkey of this site, bound to this browser\'s login-CSRF cookie: needs the login-CSRF token from `GET /auth/context` ' +
      'in X-CSRF-Token. Hand them to the browser, then send its answer to `POST /auth/passkey` within 5 minutes.',
    access: 'public',
    security: [{ loginCsrfCookie: [], csrfHeader: [] }],
    response: { status: 200, description: 'The options.', schema: passkeyLoginOptionsResponse, example: { challenge: 'q2A8nW0vLr4kH7yTb1Zs9mPq3XcUe6Jd5Fo2GiRk8aY', rpId: 'id.example.edu', timeout: 300000, userVerification: 'preferred', allowCredentials: [] } },
    errors: ['csrf_failed'],
    async handle({ services, request }) {
      return services.passkeys.signInOptions(passkeyCeremony(requireLoginCsrf(request)));
    },
  });

  const passkeyLogin = defineOperation({
    operationId: 'passkeyLogin',
    method: 'POST',
    path: '/auth/passkey',
    tag,
    summary: 'Sign in to the console with a passkey',
    description:
      'Checks the browser\'s answer to `POST /auth/passkey/options` and, for a passkey that verified the person (PIN, biometrics), sets the session cookie as ' +
      '`POST /auth/login` does. A passkey that fails answers 401 invalid_credentials and counts as a failed sign-in.',
    access: 'public',
    security: [{ loginCsrfCookie: [], csrfHeader: [] }],
    body: passkeyLoginRequest,
    bodyExample: { response: { id: 'Kx3u9Qw2Rt5yUi8oP1aS4dF', rawId: 'Kx3u9Qw2Rt5yUi8oP1aS4dF', type: 'public-key', response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', authenticatorData: 'SZYN5YgO', signature: 'MEUCIQ' } } },
    response: {
      status: 200,
      description: 'Signed in; the session cookie is set.',
      schema: consoleLoginResponse,
      example: { expiresIn: 86400, csrfToken: exampleCsrfToken, user: exampleSessionUser, clientSecretPolicy: exampleSecretPolicy, enrolmentRequired: false },
    },
    errors: ['csrf_failed', 'invalid_credentials', 'rate_limited'],
    async handle({ services, body, request, reply }) {
      const nonce = requireLoginCsrf(request);
      return signedIn(reply, await services.sessions.loginWithPasskey(passkeyCeremony(nonce), body.response, { kind: 'console', ip: request.ip }));
    },
  });

  const upstreamLogin = defineOperation({
    operationId: 'upstreamLogin',
    method: 'POST',
    path: '/auth/upstream/:name/start',
    tag,
    summary: 'Start signing in to the console through an upstream provider',
    description:
      'Starts the code flow (PKCE, state, nonce) at the upstream OpenID Connect provider `name` (one of `signInProviders` from `GET /auth/context`), for this browser: ' +
      'needs the login-CSRF token in X-CSRF-Token, with its cookie. Send the browser to `authorizationUrl`; the provider returns it to Sesame, which sends it to ' +
      '`/console/sign-in?upstream={name}`, where `POST /auth/upstream/finish` signs it in. The flow must finish within 10 minutes.',
    access: 'public',
    security: [{ loginCsrfCookie: [], csrfHeader: [] }],
    params: identityProviderParams,
    body: upstreamLoginRequest,
    bodyExample: { next: '/projects' },
    response: { status: 200, description: 'Where to send the browser.', schema: upstreamLoginResponse, example: { authorizationUrl: 'https://login.example.edu/authorize?client_id=sesame&response_type=code&scope=openid+profile+email&state=console.q2A8nW0v' } },
    errors: ['csrf_failed', 'not_found', 'service_unavailable'],
    async handle({ services, params, body, request }) {
      const nonce = requireLoginCsrf(request);
      try {
        const { url } = await services.upstreamSignIns.start(params.name, { console: { browser: consoleBrowserKey(nonce), next: body.next ?? '/' } });
        return { authorizationUrl: url };
      } catch (error) {
        if (!(error instanceof UpstreamSignInStopped)) throw error;
        if (error.reason === 'provider_unreachable') throw new AppError('service_unavailable', `${error.message} (\`POST /auth/upstream/${params.name}/start\` again later)`, { retryAfterSeconds: 30 });
        throw new AppError('not_found', `No enabled sign-in provider is called ${params.name}: choose one of \`signInProviders\` from \`GET /auth/context\`.`);
      }
    },
  });

  const upstreamFinish = defineOperation({
    operationId: 'upstreamFinish',
    method: 'POST',
    path: '/auth/upstream/finish',
    tag,
    summary: 'Finish signing in to the console through an upstream provider',
    description:
      'Signs in the browser an upstream provider has just returned (after `POST /auth/upstream/{name}/start`), within 5 minutes, once: sets the session cookie as ' +
      '`POST /auth/login` does. Needs the login-CSRF token in X-CSRF-Token, with the cookie of the browser that started the sign-in. A person with a second factor ' +
      'also sends `otp` (401 mfa_required without it).',
    access: 'public',
    security: [{ loginCsrfCookie: [], csrfHeader: [] }],
    body: upstreamFinishRequest,
    bodyExample: { otp: '123456' },
    response: {
      status: 200,
      description: 'Signed in; the session cookie is set.',
      schema: consoleLoginResponse,
      example: { expiresIn: 86400, csrfToken: exampleCsrfToken, user: exampleSessionUser, clientSecretPolicy: exampleSecretPolicy, enrolmentRequired: false },
    },
    errors: ['csrf_failed', 'invalid_credentials', 'mfa_required', 'rate_limited'],
    async handle({ services, body, request, reply }) {
      const nonce = requireLoginCsrf(request);
      return signedIn(reply, await services.sessions.loginAfterUpstream(consoleBrowserKey(nonce), { kind: 'console', ip: request.ip, otp: body.otp }));
    },
  });

  const logout = defineOperation({
    operationId: 'logout',
    method: 'POST',
    path: '/auth/logout',
    tag,
    summary: 'Sign out of the console',
    description: 'Ends the session at once and clears its cookie.',
    access: 'session',
    response: { status: 204, description: 'Signed out.' },
    errors: [],
    async handle({ services, signedIn, request, reply }) {
      await services.sessions.logout(signedIn.token, { ip: request.ip });
      cookies.clear(reply, 'session');
    },
  });

  const whoAmI = defineOperation({
    operationId: 'whoAmI',
    method: 'GET',
    path: '/auth/me',
    tag,
    summary: 'Who am I',
    description: 'The signed-in user and the client secret policy.',
    access: 'session',
    response: { status: 200, description: 'The signed-in user.', schema: whoAmIResponse, example: { user: exampleSessionUser, clientSecretPolicy: exampleSecretPolicy, enrolmentRequired: false } },
    errors: [],
    async handle({ signedIn }) {
      return { user: presentSessionUser(signedIn.user), clientSecretPolicy: presentSecretPolicy(), enrolmentRequired: signedIn.enrolmentRequired === true };
    },
  });

  return [getContext, login, passkeyLoginOptions, passkeyLogin, upstreamLogin, upstreamFinish, logout, whoAmI];
}

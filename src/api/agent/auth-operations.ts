import { DISCONNECT_PATH } from '../../domain/assistant-scopes.ts';
import { agentLoginResponse, loginRequest, presentSecretPolicy, presentSessionUser, whoAmIResponse } from '../contracts/auth.ts';
import { exampleSessionUser } from '../contracts/examples.ts';
import { defineOperation } from '../operation.ts';

const tag = 'Authentication';
const exampleSecretPolicy = presentSecretPolicy();

export const agentLogin = defineOperation({
  operationId: 'login',
  method: 'POST',
  path: '/auth/login',
  tag,
  summary: 'Log in and get an access token',
  description:
    'Exchanges an account and password for a bearer token valid for `expiresIn` seconds (86400). Several tokens per account may be valid at once. ' +
    'The password passes through the AI conversation: use this only in a trusted environment, and log out when the task is done. ' +
    '`enrolmentRequired: true`: the second-factor policy requires the person to add a second factor first, in the console under My account; until then the token may only read `GET /auth/me` and `GET /account/factors` and log out.',
  access: 'public',
  body: loginRequest,
  bodyExample: { account: 'alice', password: 'correct horse battery staple' },
  response: {
    status: 200,
    description: 'The access token and who you are.',
    schema: agentLoginResponse,
    example: { accessToken: 'h4Vb9TqL2xR7mK1pZ8sN3wC6yF0jD5gE2aU7iO9kQ1r', tokenType: 'Bearer', expiresIn: 86400, user: exampleSessionUser, clientSecretPolicy: exampleSecretPolicy, enrolmentRequired: false },
  },
  errors: ['invalid_credentials', 'forbidden', 'mfa_required', 'rate_limited', 'directory_unavailable'],
  async handle({ services, body, request }) {
    const { token, expiresIn, user, enrolmentRequired } = await services.sessions.login(body.account, body.password, { kind: 'agent', ip: request.ip, otp: body.otp });
    return { accessToken: token, tokenType: 'Bearer' as const, expiresIn, user: presentSessionUser(user), clientSecretPolicy: presentSecretPolicy(), enrolmentRequired };
  },
});

export const agentLogout = defineOperation({
  operationId: 'logout',
  method: 'POST',
  path: '/auth/logout',
  tag,
  summary: 'Log out',
  description: 'Revokes the access token at once. Call it when the task is finished.',
  access: 'session',
  response: { status: 204, description: 'The token is revoked.' },
  errors: [],
  async handle({ services, signedIn, request }) {
    await services.sessions.logout(signedIn.token, { ip: request.ip });
  },
});

export const agentWhoAmI = defineOperation({
  operationId: 'whoAmI',
  method: 'GET',
  path: '/auth/me',
  tag,
  summary: 'Who am I',
  description: 'The signed-in user and the client secret policy; also a cheap check that the token still works.',
  access: 'session',
  response: { status: 200, description: 'The signed-in user.', schema: whoAmIResponse, example: { user: exampleSessionUser, clientSecretPolicy: exampleSecretPolicy, enrolmentRequired: false } },
  errors: [],
  async handle({ signedIn }) {
    return { user: presentSessionUser(signedIn.user), clientSecretPolicy: presentSecretPolicy(), enrolmentRequired: signedIn.enrolmentRequired === true };
  },
});

export const agentDisconnect = defineOperation({
  operationId: 'disconnectAssistant',
  method: 'POST',
  path: DISCONNECT_PATH,
  tag,
  summary: 'Disconnect this assistant',
  description:
    'For an assistant signed in with OAuth: ends the connection its access token belongs to. That access token and its refresh token stop working at once, ' +
    'and the person is asked to consent again if the assistant connects later. Needs only `sesame:read`. Audited as `assistant.disconnect`. ' +
    'A password session (a token from `login`) has no connection to end: it is refused with `invalid_request`; end it with `logout`.',
  access: 'session',
  destructive: true,
  response: { status: 204, description: 'The connection has ended; the token no longer works.' },
  errors: ['invalid_request'],
  async handle({ services, actor, signedIn }) {
    await services.assistantGrants.disconnectAssistant(actor, signedIn.assistant?.grantId);
  },
});

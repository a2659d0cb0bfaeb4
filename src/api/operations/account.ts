import {
  addPasskeyRequest,
  addPasskeyResponse,
  changePasswordRequest,
  confirmTotpRequest,
  confirmTotpResponse,
  consentListResponse,
  factorListResponse,
  factorParams,
  grantParams,
  passkeyOptionsResponse,
  presentAccountSession,
  presentConsent,
  presentFactor,
  reauthenticateRequest,
  recoveryCodesResponse,
  removeFactorRequest,
  sessionListResponse,
  sessionParams,
  startTotpRequest,
  startTotpResponse,
} from '../contracts/account.ts';
import { exampleLaterTime, exampleTime } from '../contracts/examples.ts';
import type { Actor } from '../../domain/actor.ts';
import { defineOperation, type SignedIn } from '../operation.ts';
import { withPersonOnlyNote } from '../operation-surface.ts';
import { said, see } from '../../domain/pointed-text.ts';

const tag = 'My account';

/** The caller, and the password session making the request (an assistant's OAuth token is none). */
const callerOf = (actor: Actor, signedIn: SignedIn) => ({
  actor,
  currentToken: signedIn.assistant ? null : signedIn.token,
});

const exampleRecoveryCodes = ['k7mq-2xhd-9prw-4tnb', 'a3fz-8ckv-5yqe-7jgs', 'w2nr-6dpt-3hmx-9bvk', 'e4gu-7sya-2fcq-8wzn', 'p9tk-3vme-6rbd-2xha',
  'z5cw-8nqj-4gpu-7ter', 'h6ya-2kfs-9mwd-3qvc', 'r8ex-5tzb-7nkg-4ujm', 'c3vq-9hwa-6ypr-2sfe', 'm7dn-4gxk-8bte-5zwq'];
const exampleFactor = { factorId: 'fac_8Qw3nR5tY7uI9oP1', type: 'totp' as const, name: 'Phone', createdAt: exampleTime, lastUsedAt: exampleLaterTime };

export const changePassword = defineOperation({
  operationId: 'changePassword',
  method: 'POST',
  path: '/account/password',
  tag,
  summary: 'Change my password',
  description: withPersonOnlyNote('Replaces your password after checking the current one (a wrong one answers 401 invalid_credentials and counts as a failed sign-in); the current password does not stand in for a recent proof: the session needs one too. The session that makes the change stays; every other session of yours ends: console, Agent API tokens, and sign-ins at applications with their tokens.'),
  access: 'session',
  onlyFrom: 'console',
  body: changePasswordRequest,
  bodyExample: { currentPassword: 'correct horse battery staple', newPassword: 'a new long passphrase' },
  response: { status: 204, description: 'Changed; your other sessions are ended.' },
  errors: ['invalid_request', 'invalid_credentials', 'rate_limited'],
  async handle({ services, actor, signedIn, body }) {
    await services.account.changePassword(callerOf(actor, signedIn), body);
  },
});

export const listMySessions = defineOperation({
  operationId: 'listMySessions',
  method: 'GET',
  path: '/account/sessions',
  tag,
  summary: 'List my sessions',
  description: 'Your live sessions: console sign-ins, Agent API tokens, and sign-in sessions at Sesame that applications use. `current` marks the one making this request.',
  access: 'session',
  response: {
    status: 200,
    description: 'Your sessions.',
    schema: sessionListResponse,
    example: { sessions: [{ sessionId: 'ses_Xk2m9QwErT5yUi8oP3aS', kind: 'console', createdAt: exampleTime, lastSeenAt: exampleLaterTime, current: true }] },
  },
  errors: [],
  async handle({ services, actor, signedIn }) {
    return { sessions: (await services.account.listSessions(callerOf(actor, signedIn))).map(presentAccountSession) };
  },
});

export const endMySession = defineOperation({
  operationId: 'endMySession',
  method: 'DELETE',
  path: '/account/sessions/:sessionId',
  tag,
  summary: 'End one of my sessions',
  description: said`Ends the session at once (a lost laptop, a forgotten token). Its \`sessionId\` comes from ${see('listMySessions')}.`,
  access: 'session',
  destructive: true,
  params: sessionParams,
  response: { status: 204, description: 'The session is ended.' },
  errors: ['not_found'],
  async handle({ services, actor, signedIn, params }) {
    await services.account.endSession(callerOf(actor, signedIn), params.sessionId);
  },
});

export const listMyConsents = defineOperation({
  operationId: 'listMyConsents',
  method: 'GET',
  path: '/account/consents',
  tag,
  summary: 'List the applications I allowed',
  description: 'Every application (and assistant: the `native` ones) you allowed to sign you in, with the scopes you granted.',
  access: 'session',
  response: {
    status: 200,
    description: 'Your consents.',
    schema: consentListResponse,
    example: { consents: [{ grantId: 'Zr4nW8kq1Yh3Lm6PbT0vXc', clientId: 'cli_9fK2mQ7xR4tL8vN1pZ3s', clientType: 'web', displayName: 'Course portal', scopes: ['openid', 'profile'], grantedAt: exampleTime, lastUsedAt: exampleLaterTime }] },
  },
  errors: [],
  async handle({ services, actor, signedIn }) {
    return { consents: (await services.account.listConsents(callerOf(actor, signedIn))).map(presentConsent) };
  },
});

export const revokeMyConsent = defineOperation({
  operationId: 'revokeMyConsent',
  method: 'DELETE',
  path: '/account/consents/:grantId',
  tag,
  summary: 'Withdraw an application\'s access',
  description: 'Ends the consent: the application\'s tokens stop working at once, and its next sign-in asks you again.',
  access: 'session',
  destructive: true,
  params: grantParams,
  response: { status: 204, description: 'Withdrawn.' },
  errors: ['not_found'],
  async handle({ services, actor, signedIn, params }) {
    await services.account.revokeConsent(callerOf(actor, signedIn), params.grantId);
  },
});

export const listMyFactors = defineOperation({
  operationId: 'listMyFactors',
  method: 'GET',
  path: '/account/factors',
  tag,
  summary: 'List my second factors',
  description: 'Your confirmed authenticator apps (`totp`), passkeys (`passkey`) and recovery codes, and whether the instance\'s policy requires you to have a second factor.',
  access: 'session',
  response: { status: 200, description: 'Your factors.', schema: factorListResponse, example: { factors: [exampleFactor], mfaRequired: false } },
  errors: [],
  async handle({ services, actor }) {
    const { factors, mfaRequired } = await services.factors.listFactors(actor);
    return { factors: factors.map(presentFactor), mfaRequired };
  },
});

export const startTotp = defineOperation({
  operationId: 'startTotp',
  method: 'POST',
  answerIsSecret: true,
  path: '/account/factors/totp',
  tag,
  summary: 'Start adding an authenticator app',
  description: withPersonOnlyNote(said`Makes a TOTP secret (HMAC-SHA-1, 30 s, 6 digits) and its QR code. The authenticator is pending: confirm it with a code from the app (${see('confirmTotp')}) before it counts.`),
  access: 'session',
  onlyFrom: 'console',
  body: startTotpRequest,
  bodyExample: { name: 'Phone' },
  response: {
    status: 201,
    description: 'The secret, shown this once.',
    schema: startTotpResponse,
    example: { factorId: exampleFactor.factorId, secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Sesame:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Sesame', qrCodeSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 41 41">...</svg>' },
  },
  errors: ['invalid_request'],
  async handle({ services, actor, body }) {
    return services.factors.startTotp(actor, body);
  },
});

export const confirmTotp = defineOperation({
  operationId: 'confirmTotp',
  method: 'POST',
  path: '/account/factors/totp/:factorId/confirm',
  tag,
  summary: 'Confirm an authenticator app',
  description: withPersonOnlyNote('Confirms a pending authenticator with the code it shows now; from then on every sign-in asks for a code. Your first factor also brings ten recovery codes, shown only in this answer: keep them somewhere safe.'),
  access: 'session',
  onlyFrom: 'console',
  params: factorParams,
  body: confirmTotpRequest,
  bodyExample: { code: '492039' },
  response: { status: 200, description: 'The confirmed factor.', schema: confirmTotpResponse, example: { factor: exampleFactor, recoveryCodes: exampleRecoveryCodes } },
  errors: ['invalid_request', 'not_found'],
  async handle({ services, actor, params, body }) {
    const { factor, recoveryCodes } = await services.factors.confirmTotp(actor, params.factorId, body.code);
    return { factor: presentFactor(factor), ...(recoveryCodes ? { recoveryCodes } : {}) };
  },
});

export const passkeyOptions = defineOperation({
  operationId: 'passkeyOptions',
  method: 'POST',
  path: '/account/factors/passkeys/options',
  tag,
  summary: 'Start adding a passkey',
  description: withPersonOnlyNote(said`WebAuthn creation options for a new passkey of yours (relying-party ID: the issuer's host; discoverable; user verification preferred). Hand them to the browser (\`navigator.credentials.create\`), then send its answer to ${see('addPasskey')} within 5 minutes. Each set of options works once.`),
  access: 'session',
  onlyFrom: 'console',
  response: {
    status: 200,
    description: 'The options.',
    schema: passkeyOptionsResponse,
    example: {
      challenge: 'q2A8nW0vLr4kH7yTb1Zs9mPq3XcUe6Jd5Fo2GiRk8aY',
      rp: { name: 'Sesame', id: 'id.example.edu' },
      user: { id: 'dXNyXzhRdzNuUjV0WTd1STlvUDE', name: 'alice', displayName: 'Alice Example' },
      pubKeyCredParams: [{ alg: -8, type: 'public-key' }, { alg: -7, type: 'public-key' }, { alg: -257, type: 'public-key' }],
      timeout: 300000,
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred', requireResidentKey: true },
    },
  },
  errors: [],
  async handle({ services, actor }) {
    return services.passkeys.registrationOptions(actor);
  },
});

export const addPasskey = defineOperation({
  operationId: 'addPasskey',
  method: 'POST',
  answerIsSecret: true,
  path: '/account/factors/passkeys',
  tag,
  summary: 'Add a passkey',
  description: withPersonOnlyNote(said`Registers the passkey the browser made from ${see('passkeyOptions')}. From then on it signs you in on its own (the login page's "Sign in with a passkey") or as the second step after your password. Your first factor also brings ten recovery codes, shown only in this answer.`),
  access: 'session',
  onlyFrom: 'console',
  body: addPasskeyRequest,
  bodyExample: {
    name: 'Laptop',
    response: { id: 'Kx3u9Qw2Rt5yUi8oP1aS4dF', rawId: 'Kx3u9Qw2Rt5yUi8oP1aS4dF', type: 'public-key', response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ' } },
  },
  response: { status: 201, description: 'The passkey.', schema: addPasskeyResponse, example: { factor: { ...exampleFactor, type: 'passkey', name: 'Laptop' }, recoveryCodes: exampleRecoveryCodes } },
  errors: ['invalid_request'],
  async handle({ services, actor, body }) {
    const { factor, recoveryCodes } = await services.passkeys.addPasskey(actor, body);
    return { factor: presentFactor(factor), ...(recoveryCodes ? { recoveryCodes } : {}) };
  },
});

export const newRecoveryCodes = defineOperation({
  operationId: 'newRecoveryCodes',
  method: 'POST',
  answerIsSecret: true,
  path: '/account/recovery-codes',
  tag,
  summary: 'Make new recovery codes',
  description: withPersonOnlyNote('Ten new single-use recovery codes, shown only in this answer; the old ones stop working.'),
  access: 'session',
  onlyFrom: 'console',
  response: { status: 201, description: 'The new codes.', schema: recoveryCodesResponse, example: { recoveryCodes: exampleRecoveryCodes } },
  errors: ['invalid_request'],
  async handle({ services, actor }) {
    return { recoveryCodes: await services.factors.newRecoveryCodes(actor) };
  },
});

export const removeFactor = defineOperation({
  operationId: 'removeFactor',
  method: 'DELETE',
  path: '/account/factors/:factorId',
  tag,
  summary: 'Remove a second factor',
  description: withPersonOnlyNote('Removes an authenticator app or a passkey (or, with `recovery_codes`, the recovery codes). Send `currentPassword` (checked; a wrong one answers 401 invalid_credentials and counts as a failed sign-in, and a right one is the proof this removal needs), or nothing in a session with a recent proof. Without any authenticator or passkey left, the recovery codes go too and sign-in asks only for the password.'),
  access: 'session',
  onlyFrom: 'console',
  destructive: true,
  params: factorParams,
  body: removeFactorRequest,
  bodyExample: { currentPassword: 'correct horse battery staple' },
  response: { status: 204, description: 'Removed.' },
  errors: ['invalid_request', 'invalid_credentials', 'not_found', 'rate_limited'],
  async handle({ services, actor, params, body }) {
    await services.factors.removeFactor(actor, params.factorId, body?.currentPassword);
  },
});

export const reauthenticate = defineOperation({
  operationId: 'reauthenticate',
  method: 'POST',
  path: '/account/reauthenticate',
  tag,
  summary: 'Prove it is me again',
  description:
    'Proves again, in this console session, that you are you: with your `currentPassword`, or an `otp` (a code from your authenticator app or an unused recovery code). ' +
    'For REAUTH_WINDOW_SECONDS (default 10 minutes) afterwards the session may change how you sign in (password, second factors, recovery codes, email, linked identities). ' +
    'A wrong proof answers 401 invalid_credentials and counts as a failed sign-in. Console only: on the Agent API it answers 403 browser_only.',
  access: 'session',
  onlyFrom: 'console',
  body: reauthenticateRequest,
  bodyExample: { currentPassword: 'correct horse battery staple' },
  response: { status: 204, description: 'This session has a fresh proof.' },
  errors: ['invalid_request', 'invalid_credentials', 'rate_limited'],
  async handle({ services, actor, signedIn, body }) {
    await services.account.reauthenticate(callerOf(actor, signedIn), body);
  },
});

export const accountOperations = [changePassword, listMySessions, endMySession, listMyConsents, revokeMyConsent, listMyFactors, startTotp, confirmTotp, passkeyOptions, addPasskey, newRecoveryCodes, removeFactor, reauthenticate];

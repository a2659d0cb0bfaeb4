import {
  clientListResponse,
  clientResponse,
  deleteClientRequest,
  presentClient,
  presentClientWithSecret,
  presentRotation,
  registerClientRequest,
  registeredClientResponse,
  reviseClientRequest,
  revokeClientTokensRequest,
  revokedClientTokensResponse,
  revokeSecretRequest,
  rotatedSecretResponse,
  rotateSecretRequest,
  secretParams,
  updateClientMetadataRequest,
} from '../contracts/clients.ts';
import { clientIdParams, projectIdParams } from '../contracts/common.ts';
import { exampleClient, exampleLaterTime, exampleSecretValue, exampleSpaClient, exampleTime } from '../contracts/examples.ts';
import { defineOperation } from '../operation.ts';

const tag = 'Clients';
const writeErrors = ['invalid_request', 'forbidden', 'not_found', 'version_conflict', 'project_archived'] as const;
const newSecret = { secretId: 'sec_3TnW8qL2vR6kP1zX', value: exampleSecretValue, createdAt: exampleLaterTime };

export const listClients = defineOperation({
  operationId: 'listClients',
  method: 'GET',
  path: '/projects/:projectId/clients',
  tag,
  summary: 'List a project\'s clients',
  description: 'Every OIDC client of the project, with its configuration, secrets\' metadata (never their values) and `clientVersion`.',
  access: 'session',
  params: projectIdParams,
  response: { status: 200, description: 'The clients.', schema: clientListResponse, example: { clients: [exampleClient, exampleSpaClient] } },
  errors: ['not_found'],
  async handle({ services, actor, params }) {
    return { clients: (await services.clients.listClients(actor, params.projectId)).map(presentClient) };
  },
});

export const registerClient = defineOperation({
  operationId: 'registerClient',
  method: 'POST',
  path: '/projects/:projectId/clients',
  tag,
  summary: 'Register a client',
  description:
    'Registers an OIDC client; it can sign users in at once. A `web` client gets a secret: the response carries it as `clientSecret` and `secret.value` ' +
    '(the same value), this once only. Give it to the user directly and do not repeat it anywhere else. Maintainer, owner or administrator.',
  access: 'session',
  params: projectIdParams,
  body: registerClientRequest,
  bodyExample: {
    clientType: 'web',
    displayName: 'Course portal',
    redirectUris: ['https://portal.example.com/callback'],
    postLogoutRedirectUris: ['https://portal.example.com/'],
    scopeWhitelist: ['openid', 'profile', 'email'],
  },
  response: {
    status: 201,
    description: 'The new client; a web client\'s response also holds its one-time secret.',
    schema: registeredClientResponse,
    example: { client: exampleClient, clientSecret: exampleSecretValue, secret: { ...newSecret, secretId: exampleClient.secrets[0]!.secretId, createdAt: exampleTime } },
  },
  errors: ['invalid_request', 'invalid_client_metadata', 'forbidden', 'not_found', 'project_archived'],
  async handle({ services, actor, params, body }) {
    return presentClientWithSecret(await services.clients.registerClient(actor, params.projectId, body));
  },
});

export const getClient = defineOperation({
  operationId: 'getClient',
  method: 'GET',
  path: '/projects/:projectId/clients/:clientId',
  tag,
  summary: 'Read a client',
  description: 'The client with its current `clientVersion`: read it before every change and send it back.',
  access: 'session',
  params: clientIdParams,
  response: { status: 200, description: 'The client.', schema: clientResponse, example: { client: exampleClient } },
  errors: ['not_found'],
  async handle({ services, actor, params }) {
    return { client: presentClient(await services.clients.getClient(actor, params.projectId, params.clientId)) };
  },
});

export const updateClientMetadata = defineOperation({
  operationId: 'updateClientMetadata',
  method: 'PATCH',
  path: '/projects/:projectId/clients/:clientId',
  tag,
  summary: 'Change a client\'s name, description or status',
  description: 'Changes display name or description, or disables (`status: "disabled"`) or re-enables the client. A disabled client cannot sign anyone in. Maintainer, owner or administrator.',
  access: 'session',
  destructive: true,
  params: clientIdParams,
  body: updateClientMetadataRequest,
  bodyExample: { clientVersion: 1, displayName: 'Course portal (production)' },
  response: { status: 200, description: 'The client with its new clientVersion.', schema: clientResponse, example: { client: { ...exampleClient, displayName: 'Course portal (production)', clientVersion: 2 } } },
  // The service judges the name and description by the client rules (empty, too long): invalid_client_metadata.
  errors: [...writeErrors, 'invalid_client_metadata', 'invalid_client_type'],
  async handle({ services, actor, params, body }) {
    return { client: presentClient(await services.clients.updateClientMetadata(actor, params.projectId, params.clientId, body)) };
  },
});

export const reviseClientConfiguration = defineOperation({
  operationId: 'reviseClientConfiguration',
  method: 'PUT',
  path: '/projects/:projectId/clients/:clientId/revision',
  tag,
  summary: 'Change a client\'s OIDC configuration',
  description:
    'Replaces the redirect URIs, post-logout redirect URIs, scopes and PKCE setting with a new revision; live at /auth and /token at once. ' +
    'Send the whole configuration (omitted optional lists become empty) with the current `clientVersion`. Maintainer, owner or administrator.',
  access: 'session',
  params: clientIdParams,
  body: reviseClientRequest,
  bodyExample: {
    clientVersion: 1,
    redirectUris: ['https://portal.example.com/callback', 'https://portal.example.com/auth/callback'],
    postLogoutRedirectUris: ['https://portal.example.com/'],
    scopeWhitelist: ['openid', 'profile', 'email'],
  },
  response: {
    status: 200,
    description: 'The client with its new revision and clientVersion.',
    schema: clientResponse,
    example: { client: { ...exampleClient, redirectUris: ['https://portal.example.com/callback', 'https://portal.example.com/auth/callback'], revision: 2, clientVersion: 2 } },
  },
  errors: [...writeErrors, 'invalid_client_metadata', 'invalid_client_type'],
  async handle({ services, actor, params, body }) {
    return { client: presentClient(await services.clients.reviseClientConfiguration(actor, params.projectId, params.clientId, body)) };
  },
});

export const rotateClientSecret = defineOperation({
  operationId: 'rotateClientSecret',
  method: 'POST',
  path: '/projects/:projectId/clients/:clientId/secrets/rotate',
  tag,
  summary: 'Rotate a web client\'s secret',
  description:
    'Makes a new secret; the old active one becomes `retiring` and keeps working until the grace period ends (`gracePeriodSeconds`, default 3600, at most 604800, 0 revokes it at once). ' +
    'The new plaintext secret is in `clientSecret` and `secret.value`, this once only. At most two usable secrets: while a retiring one still works, revoke it first (409 secret_limit_exceeded). ' +
    'spa clients have no secret (409 invalid_client_type). Maintainer, owner or administrator.',
  access: 'session',
  params: clientIdParams,
  body: rotateSecretRequest,
  bodyExample: { clientVersion: 2, gracePeriodSeconds: 3600 },
  response: {
    status: 201,
    description: 'The client (the old secret now retiring) and the new one-time secret.',
    schema: rotatedSecretResponse,
    example: {
      client: {
        ...exampleClient,
        clientVersion: 3,
        secrets: [
          { secretId: newSecret.secretId, status: 'active', createdAt: exampleLaterTime, expiresAt: null, lastUsedAt: null },
          { ...exampleClient.secrets[0]!, status: 'retiring', expiresAt: '2026-11-21T11:15:00.000Z' },
        ],
      },
      clientSecret: exampleSecretValue,
      secret: newSecret,
    },
  },
  errors: [...writeErrors, 'invalid_client_type', 'secret_limit_exceeded'],
  async handle({ services, actor, params, body }) {
    return presentRotation(await services.clients.rotateClientSecret(actor, params.projectId, params.clientId, body));
  },
});

export const revokeClientSecret = defineOperation({
  operationId: 'revokeClientSecret',
  method: 'POST',
  path: '/projects/:projectId/clients/:clientId/secrets/:secretId/revoke',
  tag,
  summary: 'Revoke a secret',
  description: 'Revokes one secret at once (for example a retiring one nothing uses any more: see `lastUsedAt`). Maintainer, owner or administrator.',
  access: 'session',
  destructive: true,
  params: secretParams,
  body: revokeSecretRequest,
  bodyExample: { clientVersion: 3 },
  response: { status: 200, description: 'The client with the secret revoked and a new clientVersion.', schema: clientResponse, example: { client: { ...exampleClient, clientVersion: 4 } } },
  errors: writeErrors,
  async handle({ services, actor, params, body }) {
    return { client: presentClient(await services.clients.revokeClientSecret(actor, params.projectId, params.clientId, params.secretId, body)) };
  },
});

export const deleteClient = defineOperation({
  operationId: 'deleteClient',
  method: 'DELETE',
  path: '/projects/:projectId/clients/:clientId',
  tag,
  summary: 'Delete a client',
  description:
    'Deletes the client for good: its secrets and revisions, and at once every grant, code, access and refresh token it was issued; no one can sign in to it again. ' +
    'This cannot be undone: confirm with the person first; to stop it only for a while, disable it instead (PATCH with `status: "disabled"`). ' +
    'The body carries the current `clientVersion`. Maintainer, owner or administrator.',
  access: 'session',
  destructive: true,
  params: clientIdParams,
  body: deleteClientRequest,
  bodyExample: { clientVersion: 4 },
  response: { status: 204, description: 'Deleted; its tokens no longer work.' },
  errors: writeErrors,
  async handle({ services, actor, params, body }) {
    await services.clients.deleteClient(actor, params.projectId, params.clientId, body);
  },
});

export const revokeClientTokens = defineOperation({
  operationId: 'revokeClientTokens',
  method: 'POST',
  path: '/projects/:projectId/clients/:clientId/tokens/revoke',
  tag,
  summary: 'End all of a client\'s tokens',
  description:
    'Ends every grant the client holds, with its authorization codes, access tokens and refresh tokens, at once: everyone signed in to it must sign in again. ' +
    'The secrets are untouched (rotate or revoke them separately). Bumps `clientVersion`. Maintainer, owner or administrator.',
  access: 'session',
  destructive: true,
  params: clientIdParams,
  body: revokeClientTokensRequest,
  bodyExample: { clientVersion: 4 },
  response: {
    status: 200,
    description: 'The client with its new clientVersion, and how many grants were ended.',
    schema: revokedClientTokensResponse,
    example: { client: { ...exampleClient, clientVersion: 5 }, revokedGrants: 3 },
  },
  errors: writeErrors,
  async handle({ services, actor, params, body }) {
    const { client, revokedGrants } = await services.clients.revokeClientTokens(actor, params.projectId, params.clientId, body);
    return { client: presentClient(client), revokedGrants };
  },
});

export const clientOperations = [
  listClients,
  registerClient,
  getClient,
  updateClientMetadata,
  reviseClientConfiguration,
  rotateClientSecret,
  revokeClientSecret,
  revokeClientTokens,
  deleteClient,
];

import { exampleLaterTime, exampleTime } from '../contracts/examples.ts';
import { toIso, toIsoOrNull } from '../contracts/common.ts';
import {
  accountIdentityListResponse,
  createIdentityProviderRequest,
  identityParams,
  identityProviderListResponse,
  identityProviderParams,
  identityProviderResponse,
  presentIdentityProvider,
  removeIdentityProviderRequest,
  updateIdentityProviderRequest,
  type IdentityProviderJson,
} from '../contracts/identity-providers.ts';
import { withPersonOnlyNote } from '../operation-surface.ts';
import { defineOperation } from '../operation.ts';

const adminTag = 'Administration';

const exampleProvider: IdentityProviderJson = {
  type: 'oidc',
  name: 'campus',
  displayName: 'Campus login',
  enabled: true,
  provisioning: 'create',
  linkByVerifiedEmail: false,
  allowedEmailDomains: ['example.edu'],
  oidc: { issuer: 'https://login.example.edu', clientId: 'sesame', scopes: ['openid', 'profile', 'email'], claims: { account: 'preferred_username', displayName: 'name', email: 'email', emailVerified: 'email_verified' } },
  hasClientSecret: true,
  groupMapping: {},
  version: 1,
  createdAt: exampleTime,
  updatedAt: exampleTime,
};

const secretsNote = 'The client secret and bind password are stored encrypted and never returned: responses carry `hasClientSecret` or `hasBindPassword` instead.';

export const listIdentityProviders = defineOperation({
  operationId: 'listIdentityProviders',
  method: 'GET',
  path: '/admin/identity-providers',
  tag: adminTag,
  summary: 'List identity providers (administrators)',
  description: `The upstream OpenID Connect providers and LDAP directories people sign in through, in their order. ${secretsNote} Administrators only.`,
  access: 'session',
  response: { status: 200, description: 'The identity providers.', schema: identityProviderListResponse, example: { identityProviders: [exampleProvider] } },
  errors: ['forbidden'],
  async handle({ services, actor }) {
    return { identityProviders: (await services.identityProviders.listProviders(actor)).map(presentIdentityProvider) };
  },
});

export const createIdentityProvider = defineOperation({
  operationId: 'createIdentityProvider',
  method: 'POST',
  path: '/admin/identity-providers',
  tag: adminTag,
  summary: 'Add an identity provider (administrators)',
  description:
    'Adds an upstream OpenID Connect provider (`type: "oidc"` with `oidc`) or an LDAP directory (`type: "ldap"` with `ldap`). ' +
    'For OpenID Connect, Sesame reads the issuer\'s discovery document first: when it cannot (unreachable, not an issuer, another issuer named) the answer is 400 with `field_errors["oidc.issuer"]`. ' +
    'Register Sesame at the upstream with the redirect URI `{issuer}/upstream/{name}/callback` (Sesame\'s issuer). ' +
    `The login page then shows "Continue with {displayName}". ${secretsNote} Administrators only; audited.`,
  access: 'session',
  body: createIdentityProviderRequest,
  bodyExample: {
    type: 'oidc',
    name: 'campus',
    displayName: 'Campus login',
    provisioning: 'create',
    allowedEmailDomains: ['example.edu'],
    oidc: { issuer: 'https://login.example.edu', clientId: 'sesame', clientSecret: 'the secret the upstream gave Sesame' },
  },
  response: { status: 201, description: 'The new identity provider.', schema: identityProviderResponse, example: { identityProvider: exampleProvider } },
  errors: ['invalid_request', 'forbidden'],
  async handle({ services, actor, body }) {
    return { identityProvider: presentIdentityProvider(await services.identityProviders.addProvider(actor, body)) };
  },
});

export const updateIdentityProvider = defineOperation({
  operationId: 'updateIdentityProvider',
  method: 'PATCH',
  path: '/admin/identity-providers/:name',
  tag: adminTag,
  summary: 'Change an identity provider (administrators)',
  description:
    'Changes only the fields sent (inside `oidc` or `ldap` too); `clientSecret` or `bindPassword` replaces the stored one. The type and name cannot change. ' +
    'Send the `version` you read as `expectedVersion`; a change made meanwhile answers 409 version_conflict. A changed OpenID Connect issuer or client id is discovered again (400 when that fails). ' +
    `${secretsNote} Administrators only; audited.`,
  access: 'session',
  params: identityProviderParams,
  body: updateIdentityProviderRequest,
  bodyExample: { expectedVersion: 1, displayName: 'University login', allowedEmailDomains: ['example.edu', 'alumni.example.edu'] },
  response: { status: 200, description: 'The changed identity provider.', schema: identityProviderResponse, example: { identityProvider: { ...exampleProvider, displayName: 'University login', version: 2, updatedAt: exampleLaterTime } } },
  errors: ['invalid_request', 'forbidden', 'not_found', 'version_conflict'],
  async handle({ services, actor, params, body }) {
    return { identityProvider: presentIdentityProvider(await services.identityProviders.changeProvider(actor, params.name, body)) };
  },
});

export const deleteIdentityProvider = defineOperation({
  operationId: 'deleteIdentityProvider',
  method: 'DELETE',
  path: '/admin/identity-providers/:name',
  tag: adminTag,
  summary: 'Remove an identity provider (administrators)',
  description:
    'Removes the provider and every link from its accounts to Sesame people; the people and their subjectIds stay (those without a password then need one, or another provider, to sign in). ' +
    'The body carries `expectedVersion`. Administrators only; audited.',
  access: 'session',
  destructive: true,
  params: identityProviderParams,
  body: removeIdentityProviderRequest,
  bodyExample: { expectedVersion: 2 },
  response: { status: 204, description: 'Removed.' },
  errors: ['invalid_request', 'forbidden', 'not_found', 'version_conflict'],
  async handle({ services, actor, params, body }) {
    await services.identityProviders.removeProvider(actor, params.name, body.expectedVersion);
  },
});

export const listMyIdentities = defineOperation({
  operationId: 'listMyIdentities',
  method: 'GET',
  path: '/account/identities',
  tag: 'My account',
  summary: 'List my linked identities',
  description: 'The accounts at upstream identity providers (OpenID Connect providers, LDAP directories) that sign you in to Sesame.',
  access: 'session',
  response: {
    status: 200,
    description: 'Your linked identities.',
    schema: accountIdentityListResponse,
    example: { identities: [{ identityId: 'idn_3kQ9mW2xR7tY5uP1', provider: 'campus', displayName: 'Campus login', linkedAt: exampleTime, lastSignInAt: exampleLaterTime }] },
  },
  errors: [],
  async handle({ services, actor }) {
    const identities = await services.accountIdentities.listIdentities(actor);
    return { identities: identities.map((identity) => ({ ...identity, linkedAt: toIso(identity.linkedAt), lastSignInAt: toIsoOrNull(identity.lastSignInAt) })) };
  },
});

export const removeMyIdentity = defineOperation({
  operationId: 'removeMyIdentity',
  method: 'DELETE',
  path: '/account/identities/:identityId',
  tag: 'My account',
  summary: 'Unlink one of my identities',
  description:
    withPersonOnlyNote(
      'Unlinks the upstream account: it no longer signs you in (a later sign-in through it may link or create an account again, as the provider allows). ' +
        'Refused with 409 last_sign_in_method when it is your last way to sign in (no password, no passkey, no other linked identity): add a passkey or set a password first.',
    ),
  access: 'session',
  onlyFrom: 'console',
  destructive: true,
  params: identityParams,
  response: { status: 204, description: 'Unlinked.' },
  errors: ['not_found', 'last_sign_in_method'],
  async handle({ services, actor, params }) {
    await services.accountIdentities.removeIdentity(actor, params.identityId);
  },
});

export const identityProviderOperations = [listIdentityProviders, createIdentityProvider, updateIdentityProvider, deleteIdentityProvider];
export const accountIdentityOperations = [listMyIdentities, removeMyIdentity];

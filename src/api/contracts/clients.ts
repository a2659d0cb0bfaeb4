import { z } from 'zod';
import { clientTypeProblems, gracePeriodProblem, REDIRECT_URI_RULES, scopeWhitelistProblem, uriListProblems } from '../../domain/client-rules.ts';
import { CLIENT_LIMITS, CLIENT_TYPES, SCOPES, SECRET_POLICY } from '../../domain/clients.ts';
import { CLIENT_STATUSES, SECRET_STATUSES } from '../../domain/statuses.ts';
import { textProblem } from '../../domain/text-fields.ts';
import type { Client, NewSecret, SecretInfo } from '../../services/types.ts';
import { clientIdParams, clientVersion, timestamp, toIso, toIsoOrNull } from './common.ts';

/** Marks a rule's problem as one of client metadata: the request answers 400 invalid_client_metadata (see request-validation.ts). */
export const CLIENT_METADATA_PROBLEM = { error: 'invalid_client_metadata' } as const;

/**
 * A domain rule (src/domain/client-rules.ts) as a zod check: the contract is the one place a client's
 * fields are judged, and a problem reads the same on every path that takes a client (both APIs and the
 * first-deployment import), in the rule's own words.
 */
function rule<T>(problem: (value: T) => string | undefined, params?: typeof CLIENT_METADATA_PROBLEM) {
  return (value: T, ctx: z.RefinementCtx<T>) => {
    const message = problem(value);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message, ...(params ? { params } : {}) });
  };
}

const displayNameField = z
  .string()
  .superRefine(rule((value: string) => textProblem(value, { required: true, maxLength: CLIENT_LIMITS.maxDisplayNameLength, singleLine: true }), CLIENT_METADATA_PROBLEM))
  .meta({ maxLength: CLIENT_LIMITS.maxDisplayNameLength });
const descriptionField = z
  .string()
  .superRefine(rule((value: string) => textProblem(value, { required: false, maxLength: CLIENT_LIMITS.maxDescriptionLength }), CLIENT_METADATA_PROBLEM))
  .meta({ maxLength: CLIENT_LIMITS.maxDescriptionLength });

// Typed here, judged by the domain rules: a URI or scope problem comes back as invalid_client_metadata.
const uriList = (description: string, required: boolean) =>
  z
    .array(z.string().meta({ format: 'uri', maxLength: CLIENT_LIMITS.maxUriLength }))
    .superRefine((uris, ctx) => {
      // Each bad URI under its own path (`redirectUris.0`), the list's own problems under the list.
      for (const [below, message] of Object.entries(uriListProblems(uris, { required }))) {
        ctx.addIssue({ code: 'custom', message, path: below === '' ? [] : [Number(below)], params: CLIENT_METADATA_PROBLEM });
      }
    })
    .meta({ description, maxItems: CLIENT_LIMITS.maxRedirectUris });

const scopeList = z
  .array(z.string().meta({ enum: [...SCOPES] }))
  .superRefine(rule(scopeWhitelistProblem, CLIENT_METADATA_PROBLEM))
  .meta({ description: `Allowed scopes: ${SCOPES.join(', ')}. Must contain openid; a spa client cannot have offline_access. The assistant scopes (sesame:read, sesame:write, sesame:admin) are not listed here: any native client may ask for them.` });

export const secretInfoJson = z
  .object({
    secretId: z.string(),
    status: z.enum(SECRET_STATUSES).meta({ description: '`retiring` secrets still work at /token until `expiresAt`.' }),
    createdAt: timestamp,
    expiresAt: timestamp.nullable().meta({ description: 'When a retiring secret stops working; null for the active one.' }),
    lastUsedAt: timestamp.nullable().meta({ description: 'When /token last issued tokens to a request authenticated with this secret (to the minute; a refused request does not count); shows whether a retiring secret is still in use.' }),
  })
  .meta({ id: 'SecretInfo', description: 'A client secret\'s metadata; the value itself is never shown again.' });

export const clientJson = z
  .object({
    clientId: z.string().meta({ description: 'The OIDC `client_id`.' }),
    projectId: z.string(),
    clientType: z.enum(CLIENT_TYPES).meta({ description: '`web`: confidential, authenticates with client_secret_basic. `spa`: public, no secret, PKCE always. `native`: an installed app or AI assistant; public, PKCE always, loopback redirect URIs match any port.' }),
    displayName: z.string(),
    description: z.string(),
    redirectUris: z.array(z.string()),
    postLogoutRedirectUris: z.array(z.string()),
    scopeWhitelist: z.array(z.enum(SCOPES)),
    requirePkce: z.boolean(),
    claimsInIdToken: z.boolean().meta({ description: 'Whether the ID token also carries the profile, email and groups claims that the granted scopes release at userinfo; false: the ID token holds only sub and how the person signed in.' }),
    status: z.enum(CLIENT_STATUSES).meta({ description: 'A disabled client cannot sign anyone in.' }),
    revision: z.number().int().meta({ description: 'Number of the current OIDC configuration revision.' }),
    secrets: z.array(secretInfoJson),
    clientVersion: z.number().int().meta({ description: 'Optimistic-lock version; send it back as `clientVersion` with every change to this client.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Client' });

export type ClientJson = z.infer<typeof clientJson>;

const presentSecretInfo = (secret: SecretInfo): z.infer<typeof secretInfoJson> => ({
  secretId: secret.secretId,
  status: secret.status,
  createdAt: toIso(secret.createdAt),
  expiresAt: toIsoOrNull(secret.expiresAt),
  lastUsedAt: toIsoOrNull(secret.lastUsedAt),
});

export function presentClient(client: Client): ClientJson {
  return {
    clientId: client.clientId,
    projectId: client.projectId,
    clientType: client.clientType,
    displayName: client.displayName,
    description: client.description,
    redirectUris: [...client.redirectUris],
    postLogoutRedirectUris: [...client.postLogoutRedirectUris],
    scopeWhitelist: [...client.scopeWhitelist],
    requirePkce: client.requirePkce,
    claimsInIdToken: client.claimsInIdToken,
    status: client.status,
    revision: client.revision,
    secrets: client.secrets.map(presentSecretInfo),
    clientVersion: client.clientVersion,
    createdAt: toIso(client.createdAt),
    updatedAt: toIso(client.updatedAt),
  };
}

export const newSecretJson = z
  .object({
    secretId: z.string(),
    value: z.string().meta({ description: 'The plaintext secret: shown this once, never again. Hand it to the user directly.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'NewSecret' });

const presentNewSecret = (secret: NewSecret): z.infer<typeof newSecretJson> => ({ secretId: secret.secretId, value: secret.value, createdAt: toIso(secret.createdAt) });

export const clientResponse = z.object({ client: clientJson });
export const clientListResponse = z.object({ clients: z.array(clientJson) });

export const registeredClientResponse = z.object({
  client: clientJson,
  clientSecret: z.string().optional().meta({ description: 'web clients only: the plaintext secret, the same as `secret.value`, shown this once (left out of a replayed answer).' }),
  secret: newSecretJson.optional().meta({ description: 'web clients only; left out of a replayed answer (`"replayed": true`).' }),
});

export const rotatedSecretResponse = z.object({
  client: clientJson,
  clientSecret: z.string().optional().meta({ description: 'The new plaintext secret, the same as `secret.value`, shown this once (left out of a replayed answer).' }),
  secret: newSecretJson.optional().meta({ description: 'Left out of a replayed answer (`"replayed": true`).' }),
});

export function presentClientWithSecret(result: { client: Client; secret?: NewSecret | undefined }) {
  return {
    client: presentClient(result.client),
    ...(result.secret ? { clientSecret: result.secret.value, secret: presentNewSecret(result.secret) } : {}),
  };
}

export function presentRotation(result: { client: Client; secret: NewSecret }) {
  return { client: presentClient(result.client), clientSecret: result.secret.value, secret: presentNewSecret(result.secret) };
}

const configurationFields = {
  redirectUris: uriList(
    `At least one, each ${REDIRECT_URI_RULES}.`,
    true,
  ),
  postLogoutRedirectUris: uriList('Where /session/end may send the user back; the same URI rules.', false).optional(),
  scopeWhitelist: scopeList,
  requirePkce: z.boolean().optional().meta({ description: 'Defaults to true. Only a web client may set false; spa and native clients always require PKCE (S256).' }),
  claimsInIdToken: z
    .boolean()
    .optional()
    .meta({ description: 'Defaults to false. true: the ID token also carries the profile, email and groups claims the granted scopes release at userinfo (for applications that read only the ID token).' }),
};

const typeGuard = z
  .enum(CLIENT_TYPES)
  .optional()
  .meta({ description: 'Optional; if given it must be the client\'s current type. A client\'s type never changes (409 invalid_client_type).' });

/** The rules between fields, which depend on the client's type (a revision's are checked against the stored type). */
export function checkClientTypeRules(body: { clientType: (typeof CLIENT_TYPES)[number]; redirectUris?: string[]; postLogoutRedirectUris?: string[] | undefined; scopeWhitelist: string[]; requirePkce?: boolean | undefined }, ctx: z.RefinementCtx) {
  for (const [field, message] of Object.entries(clientTypeProblems(body.clientType, body))) {
    ctx.addIssue({ code: 'custom', path: field.split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key)), message, params: CLIENT_METADATA_PROBLEM });
  }
}

/** Registration, shared with the first-deployment import (services/client-import.ts), which extends it. */
export const registerClientRequest = z
  .object({
    clientType: z.enum(CLIENT_TYPES).meta({ description: '`web` (confidential, gets a secret), `spa` (public, no secret) or `native` (an installed app or AI assistant: public, no secret, loopback or private-use-scheme redirect URIs).' }),
    displayName: displayNameField,
    description: descriptionField.optional(),
    ...configurationFields,
  })
  .strict()
  .superRefine(checkClientTypeRules);

export const updateClientMetadataRequest = z
  .object({
    clientVersion,
    displayName: displayNameField.optional(),
    description: descriptionField.optional(),
    status: z.enum(CLIENT_STATUSES).optional().meta({ description: '`disabled` stops the client signing anyone in; `active` re-enables it.' }),
    clientType: typeGuard,
  })
  .strict();

export const reviseClientRequest = z
  .object({ clientVersion, ...configurationFields, clientType: typeGuard })
  .strict()
  .meta({ description: 'The whole new OIDC configuration: omitted optional lists become empty, omitted requirePkce becomes true, omitted claimsInIdToken becomes false.' });

export const rotateSecretRequest = z
  .object({
    clientVersion,
    gracePeriodSeconds: z
      .number()
      .superRefine(rule(gracePeriodProblem))
      .meta({ type: 'integer', minimum: 0, maximum: SECRET_POLICY.maxGraceSeconds })
      .optional()
      .meta({
        description: `How long the old secret keeps working: default ${SECRET_POLICY.defaultGraceSeconds}, at most ${SECRET_POLICY.maxGraceSeconds}; 0 revokes it at once.`,
      }),
  })
  .strict();

export const revokeSecretRequest = z.object({ clientVersion }).strict();
export const deleteClientRequest = z.object({ clientVersion }).strict();
export const revokeClientTokensRequest = z.object({ clientVersion }).strict();

export const revokedClientTokensResponse = z.object({
  client: clientJson,
  revokedGrants: z.number().int().min(0).meta({ description: 'How many grants (sign-ins with their codes, access and refresh tokens) were ended.' }),
});

export const secretParams = clientIdParams.extend({ secretId: z.string().meta({ description: 'The secret identifier from `client.secrets`, e.g. `sec_...`.' }) });

import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH, displayNameProblem } from '../../domain/accounts.ts';
import {
  DEFAULT_DIRECTORY_ATTRIBUTES,
  DEFAULT_UPSTREAM_CLAIMS,
  DEFAULT_UPSTREAM_SCOPES,
  DEFAULT_USER_SEARCH_FILTER,
  directoryUrlProblem,
  emailDomainProblem,
  IDENTITY_PROVIDER_NAME_PATTERN,
  IDENTITY_PROVIDER_TYPES,
  type IdentityProvider,
  PROVISIONING_MODES,
  upstreamIssuerProblem,
} from '../../domain/identity-providers.ts';
import { DEFAULT_GROUP_SEARCH_FILTER } from '../../domain/identity-providers.ts';
import { GROUP_MAPPING_MAX_ENTRIES, GROUP_NAME_PATTERN, GROUP_NAME_RULE } from '../../domain/groups.ts';
import { readableText, timestamp, toIso } from './common.ts';

const rule = (problem: (value: string) => string | undefined) => (value: string, context: z.RefinementCtx) => {
  const message = problem(value);
  if (message !== undefined) context.addIssue({ code: 'custom', message });
};

const name = z
  .string()
  .regex(IDENTITY_PROVIDER_NAME_PATTERN, 'must be a slug: 1-40 lower-case letters, digits and -, starting and ending with a letter or digit')
  .meta({ description: 'Unique slug; part of Sesame\'s redirect URI `{issuer}/upstream/{name}/callback`. Cannot be changed.', examples: ['campus'] });
const displayName = readableText().superRefine(rule(displayNameProblem)).meta({ maxLength: DISPLAY_NAME_MAX_LENGTH, description: 'Shown on the login page as "Continue with {displayName}".' });
const attributeName = z.string().min(1).max(200);
const secret = (what: string) => z.string().min(1).max(4096).meta({ writeOnly: true, description: `${what}; stored encrypted, never returned (the response says \`has...: true\`).` });
const allowedEmailDomains = z
  .array(z.string().max(253).transform((domain) => domain.trim().toLowerCase()).superRefine(rule(emailDomainProblem)))
  .max(100)
  .meta({ description: "Only people whose upstream email is at one of these domains, and verified by an OpenID Connect upstream (`email_verified: true`), may sign in; a directory's mail attribute counts as it is. Empty or absent: every domain." });

const scopes = z
  .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be a scope token'))
  .min(1)
  .max(30)
  .refine((list) => list.includes('openid'), 'must include openid');

const claimsInput = z
  .object({
    account: attributeName.optional(),
    displayName: attributeName.optional(),
    email: attributeName.optional(),
    emailVerified: attributeName.optional(),
    groups: attributeName.optional().meta({ description: 'A claim holding the person\'s upstream group names (a list, or one name), mapped through `groupMapping` at each sign-in; absent: groups are not read.' }),
  })
  .strict()
  .meta({ description: `Which ID token or userinfo claim gives each attribute; defaults ${JSON.stringify(DEFAULT_UPSTREAM_CLAIMS)}.` });
const attributesInput = z
  .object({ account: attributeName.optional(), displayName: attributeName.optional(), email: attributeName.optional() })
  .strict()
  .meta({ description: `Which directory attribute gives each of the person's fields; defaults ${JSON.stringify(DEFAULT_DIRECTORY_ATTRIBUTES)}.` });

const issuer = z.string().max(2000).superRefine(rule(upstreamIssuerProblem)).meta({ description: 'The upstream issuer; Sesame reads `{issuer}/.well-known/openid-configuration` when the provider is added or changed.' });
const clientId = z.string().min(1).max(500).meta({ description: 'The client id Sesame was registered with at the upstream.' });
const ldapUrl = z.string().max(2000).superRefine(rule(directoryUrlProblem)).meta({ description: 'ldaps://, or ldap:// with `startTls: true`. Plain ldap:// (passwords in clear) is refused with 400 unless the host is a loopback address.' });
const dn = z.string().min(1).max(1000);
const searchFilter = z
  .string()
  .min(1)
  .max(1000)
  .refine((filter) => filter.includes('{account}'), 'must contain {account} (replaced by the escaped account name)');

const groupFilter = z
  .string()
  .min(1)
  .max(1000)
  .refine((filter) => filter.includes('{dn}'), 'must contain {dn} (replaced by the escaped DN of the person\'s entry)');

const groupMapping = z
  .record(z.string().min(1).max(1000), z.string().regex(GROUP_NAME_PATTERN, GROUP_NAME_RULE))
  .refine((mapping) => Object.keys(mapping).length <= GROUP_MAPPING_MAX_ENTRIES, `must have at most ${GROUP_MAPPING_MAX_ENTRIES} entries`)
  .meta({
    description:
      '`{"<upstream group name, or LDAP group DN>": "<Sesame group name>"}`. At each sign-in through the provider, the person\'s memberships from it are replaced by the mapped groups ' +
      '(LDAP DNs compare case-insensitively); unmapped upstream groups and mappings to groups that do not exist are ignored. Absent: `{}`.',
  });

const oidcInput = z
  .object({ issuer, clientId, clientSecret: secret('The client secret at the upstream').optional(), scopes: scopes.optional().meta({ description: `Default ${JSON.stringify(DEFAULT_UPSTREAM_SCOPES)}; must include openid.` }), claims: claimsInput.optional() })
  .strict();
const ldapInput = z
  .object({
    url: ldapUrl,
    startTls: z.boolean().optional().meta({ description: 'Default false.' }),
    bindDn: dn.meta({ description: 'The entry Sesame binds as to search for people.' }),
    bindPassword: secret('The password of bindDn').optional(),
    userSearchBase: dn,
    userSearchFilter: searchFilter.optional().meta({ description: `Default \`${DEFAULT_USER_SEARCH_FILTER}\`; \`{account}\` is replaced by the RFC 4515-escaped account name.` }),
    attributes: attributesInput.optional(),
    adminGroupDn: dn.nullable().optional().meta({ description: 'Members of this group are administrators in Sesame; absent or null: the directory decides nothing about it.' }),
    groupSearchBase: dn.nullable().optional().meta({ description: 'Where the person\'s groups are searched at each sign-in (their DNs are mapped through `groupMapping`); absent or null: groups are not read.' }),
    groupSearchFilter: groupFilter.optional().meta({ description: `Default \`${DEFAULT_GROUP_SEARCH_FILTER}\`; \`{dn}\` is replaced by the RFC 4515-escaped DN of the person's entry.` }),
  })
  .strict();

export const createIdentityProviderRequest = z
  .object({
    type: z.enum(IDENTITY_PROVIDER_TYPES),
    name,
    displayName,
    enabled: z.boolean().optional().meta({ description: 'Default true.' }),
    provisioning: z.enum(PROVISIONING_MODES).meta({ description: '`create`: a first sign-in creates the person; `existing_only`: only people already linked (or linked by email) may sign in.' }),
    linkByVerifiedEmail: z.boolean().optional().meta({ description: 'Default false. When true, a first sign-in whose upstream email is verified links to the one person with that verified address. An unverified upstream email never links.' }),
    allowedEmailDomains: allowedEmailDomains.optional(),
    oidc: oidcInput.optional().meta({ description: 'Required when `type` is `oidc`.' }),
    ldap: ldapInput.optional().meta({ description: 'Required when `type` is `ldap`.' }),
    groupMapping: groupMapping.optional(),
  })
  .strict()
  // Checked even when other fields are wrong, so one answer names every problem.
  .superRefine(
    (input, context) => {
      if (typeof input !== 'object' || input === null) return;
      const type = (input as { type?: unknown }).type;
      if (type !== 'oidc' && type !== 'ldap') return;
      const other = type === 'oidc' ? 'ldap' : 'oidc';
      if (input[type] === undefined) context.addIssue({ code: 'custom', path: [type], message: `is required for a provider of type ${type}` });
      if (input[other] !== undefined) context.addIssue({ code: 'custom', path: [other], message: `must be absent for a provider of type ${type}` });
    },
    { when: () => true },
  );
export type CreateIdentityProviderInput = z.output<typeof createIdentityProviderRequest>;

export const updateIdentityProviderRequest = z
  .object({
    expectedVersion: z.number().int().min(1).meta({ description: 'The `version` you last read; a stale one is refused with 409 version_conflict.' }),
    displayName: displayName.optional(),
    enabled: z.boolean().optional(),
    provisioning: z.enum(PROVISIONING_MODES).optional(),
    linkByVerifiedEmail: z.boolean().optional(),
    allowedEmailDomains: allowedEmailDomains.optional(),
    oidc: oidcInput.partial().strict().optional().meta({ description: 'Only the fields to change; `clientSecret` replaces the stored secret, and is required again when `issuer` changes (the stored secret never goes to a new issuer).' }),
    ldap: ldapInput.partial().strict().optional().meta({ description: 'Only the fields to change; `bindPassword` replaces the stored password, and is required again when `url` changes (the stored password never goes to a new server).' }),
    groupMapping: groupMapping.optional().meta({ description: 'Replaces the whole mapping.' }),
  })
  .strict();
export type UpdateIdentityProviderInput = z.output<typeof updateIdentityProviderRequest>;

export const removeIdentityProviderRequest = z.object({ expectedVersion: z.number().int().min(1) }).strict();
export const identityProviderParams = z.object({ name: z.string().min(1).max(100) });

const claimsJson = z.object({ account: z.string(), displayName: z.string(), email: z.string(), emailVerified: z.string(), groups: z.string().optional() });
const attributesJson = z.object({ account: z.string(), displayName: z.string(), email: z.string() });

export const identityProviderJson = z
  .object({
    type: z.enum(IDENTITY_PROVIDER_TYPES),
    name: z.string(),
    displayName: z.string(),
    enabled: z.boolean(),
    provisioning: z.enum(PROVISIONING_MODES),
    linkByVerifiedEmail: z.boolean(),
    allowedEmailDomains: z.array(z.string()),
    oidc: z.object({ issuer: z.string(), clientId: z.string(), scopes: z.array(z.string()), claims: claimsJson }).optional(),
    ldap: z
      .object({
        url: z.string(),
        startTls: z.boolean(),
        bindDn: z.string(),
        userSearchBase: z.string(),
        userSearchFilter: z.string(),
        attributes: attributesJson,
        adminGroupDn: z.string().nullable(),
        groupSearchBase: z.string().nullable(),
        groupSearchFilter: z.string(),
      })
      .optional(),
    hasClientSecret: z.boolean().optional().meta({ description: 'oidc: whether a client secret is stored (it is never returned).' }),
    hasBindPassword: z.boolean().optional().meta({ description: 'ldap: whether a bind password is stored (it is never returned).' }),
    groupMapping: z.record(z.string(), z.string()).meta({ description: 'Upstream group name (or LDAP group DN) to Sesame group name.' }),
    version: z.number().int().meta({ description: 'Send as `expectedVersion` to change or remove the provider.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'IdentityProvider' });
export type IdentityProviderJson = z.infer<typeof identityProviderJson>;

export const identityProviderResponse = z.object({ identityProvider: identityProviderJson });
export const identityProviderListResponse = z.object({ identityProviders: z.array(identityProviderJson) });

/** Field by field: a stored provider carries its sealed secret, which has no path to JSON. */
export function presentIdentityProvider(provider: IdentityProvider): IdentityProviderJson {
  const common = {
    type: provider.type,
    name: provider.name,
    displayName: provider.displayName,
    enabled: provider.enabled,
    provisioning: provider.provisioning,
    linkByVerifiedEmail: provider.linkByVerifiedEmail,
    allowedEmailDomains: [...provider.allowedEmailDomains],
    groupMapping: { ...provider.groupMapping },
    version: provider.version,
    createdAt: toIso(provider.createdAt),
    updatedAt: toIso(provider.updatedAt),
  };
  if (provider.type === 'oidc') {
    const { issuer: upstreamIssuer, clientId: upstreamClientId, scopes: upstreamScopes, claims } = provider.oidc;
    return { ...common, oidc: { issuer: upstreamIssuer, clientId: upstreamClientId, scopes: [...upstreamScopes], claims: { ...claims } }, hasClientSecret: provider.hasClientSecret };
  }
  const { url, startTls, bindDn, userSearchBase, userSearchFilter, attributes, adminGroupDn, groupSearchBase, groupSearchFilter } = provider.ldap;
  const groupSearch = { groupSearchBase: groupSearchBase ?? null, groupSearchFilter: groupSearchFilter ?? DEFAULT_GROUP_SEARCH_FILTER };
  return { ...common, ldap: { url, startTls, bindDn, userSearchBase, userSearchFilter, attributes: { ...attributes }, adminGroupDn, ...groupSearch }, hasBindPassword: provider.hasBindPassword };
}

export const accountIdentityJson = z
  .object({
    identityId: z.string(),
    provider: z.string().meta({ description: 'The identity provider\'s name.' }),
    displayName: z.string().meta({ description: 'The identity provider\'s display name.' }),
    linkedAt: timestamp,
    lastSignInAt: timestamp.nullable(),
  })
  .meta({ id: 'AccountIdentity' });
export const accountIdentityListResponse = z.object({ identities: z.array(accountIdentityJson) });
export const identityParams = z.object({ identityId: z.string().min(1).max(100) });

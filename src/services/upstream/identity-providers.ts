import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import {
  DEFAULT_DIRECTORY_ATTRIBUTES,
  DEFAULT_GROUP_SEARCH_FILTER,
  DEFAULT_UPSTREAM_CLAIMS,
  DEFAULT_UPSTREAM_SCOPES,
  DEFAULT_USER_SEARCH_FILTER,
  directoryTransportProblem,
  type IdentityProvider,
  type StoredIdentityProvider,
} from '../../domain/identity-providers.ts';
import { providerMembershipSource } from '../../domain/groups.ts';
import { AppError } from '../../errors.ts';
import { openSealedText, sealText } from '../../security/sealed-text.ts';
import type { Repositories } from '../../storage/store.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { keyEncryptionSecretOf } from '../sign-in/second-factor.ts';
import type { CreateIdentityProviderInput, UpdateIdentityProviderInput } from './identity-provider-input.ts';
import { checkUpstreamDiscovery } from './upstream-discovery.ts';

const PROVIDER_SECRETS = { salt: 'sesame/identity-provider', info: 'identity-provider-secret aes-256-gcm v1' };

function requireAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new AppError('forbidden', 'Only administrators see and change identity providers.');
}

/** What an audit entry shows of a provider: everything but the secret, whose presence it records. */
function audited(provider: StoredIdentityProvider): Record<string, unknown> {
  const { secretSealed, createdAt, updatedAt, version, ...rest } = provider;
  void secretSealed;
  void createdAt;
  void updatedAt;
  void version;
  return rest;
}

/** Drops the sealed secret: what leaves the service. */
export function withoutSecret(provider: StoredIdentityProvider): IdentityProvider {
  const { secretSealed, position, ...rest } = provider;
  void secretSealed;
  void position;
  return rest as IdentityProvider;
}

/** A new directory's transport problem, keyed as the field that would fix it. */
function transportErrors(input: CreateIdentityProviderInput): Record<string, string> {
  if (input.type !== 'ldap' || !input.ldap) return {};
  const problem = directoryTransportProblem(input.ldap.url, input.ldap.startTls ?? false);
  return problem ? { 'ldap.url': problem } : {};
}

const insecureDirectory = (name: string, fieldErrors: Record<string, string>) =>
  new AppError('invalid_request', `The directory ${name} would receive passwords in clear: use ldaps://, or ldap:// with startTls: true; plain ldap:// is accepted only to a loopback address.`, { fieldErrors });

const domainsOf = (domains: readonly string[]) => [...new Set(domains.map((domain) => domain.trim().toLowerCase()))];

const notFound = (name: string) => new AppError('not_found', said`No identity provider is named ${name}; list them with ${see('listIdentityProviders')}.`);
const conflict = (name: string, version: number) =>
  new AppError('version_conflict', said`The identity provider ${name} changed meanwhile (now version ${version}); read it again with ${see('listIdentityProviders')} and retry with that version.`);

/** Administrators' operations on the upstream OpenID Connect providers and LDAP directories (DESIGN.md section 11). */
export function createIdentityProviderService(deps: ServiceDeps) {
  const { store, clock } = deps;

  async function seal(repos: Repositories, secret: string | undefined | null, name: string): Promise<string | null> {
    if (secret === undefined || secret === null) return null;
    return sealText(secret, name, await keyEncryptionSecretOf(deps, repos), PROVIDER_SECRETS);
  }

  function build(input: CreateIdentityProviderInput, now: number, position: number, secretSealed: string | null): StoredIdentityProvider {
    const common = {
      name: input.name,
      displayName: input.displayName.trim(),
      enabled: input.enabled ?? true,
      provisioning: input.provisioning,
      linkByVerifiedEmail: input.linkByVerifiedEmail ?? false,
      allowedEmailDomains: domainsOf(input.allowedEmailDomains ?? []),
      groupMapping: { ...input.groupMapping },
      position,
      secretSealed,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    if (input.type === 'oidc') {
      const oidc = input.oidc!;
      return {
        ...common,
        type: 'oidc',
        oidc: { issuer: oidc.issuer, clientId: oidc.clientId, scopes: oidc.scopes ?? [...DEFAULT_UPSTREAM_SCOPES], claims: { ...DEFAULT_UPSTREAM_CLAIMS, ...oidc.claims } },
        hasClientSecret: secretSealed !== null,
      };
    }
    const ldap = input.ldap!;
    return {
      ...common,
      type: 'ldap',
      ldap: {
        url: ldap.url,
        startTls: ldap.startTls ?? false,
        bindDn: ldap.bindDn,
        userSearchBase: ldap.userSearchBase,
        userSearchFilter: ldap.userSearchFilter ?? DEFAULT_USER_SEARCH_FILTER,
        attributes: { ...DEFAULT_DIRECTORY_ATTRIBUTES, ...ldap.attributes },
        adminGroupDn: ldap.adminGroupDn ?? null,
        groupSearchBase: ldap.groupSearchBase ?? null,
        groupSearchFilter: ldap.groupSearchFilter ?? DEFAULT_GROUP_SEARCH_FILTER,
      },
      hasBindPassword: secretSealed !== null,
    };
  }

  /** The provider after `changes`; the new secret (sealed) when one is sent, else the stored one. */
  async function changed(repos: Repositories, before: StoredIdentityProvider, changes: UpdateIdentityProviderInput, now: number): Promise<StoredIdentityProvider> {
    const fieldErrors: Record<string, string> = {};
    if (before.type === 'oidc' && changes.ldap) fieldErrors.ldap = 'must be absent for a provider of type oidc';
    if (before.type === 'ldap' && changes.oidc) fieldErrors.oidc = 'must be absent for a provider of type ldap';
    if (Object.keys(fieldErrors).length > 0) throw new AppError('invalid_request', `The provider ${before.name} is of type ${before.type}; change only its own settings.`, { fieldErrors });
    // The stored secret was given for the stored endpoint: it never follows the provider to a new one.
    if (before.secretSealed !== null) {
      if (before.type === 'oidc' && changes.oidc?.issuer !== undefined && changes.oidc.issuer !== before.oidc.issuer && changes.oidc.clientSecret === undefined) {
        fieldErrors['oidc.clientSecret'] = 'is required again when the issuer changes';
      }
      if (before.type === 'ldap' && changes.ldap?.url !== undefined && changes.ldap.url !== before.ldap.url && changes.ldap.bindPassword === undefined) {
        fieldErrors['ldap.bindPassword'] = 'is required again when the url changes';
      }
      if (Object.keys(fieldErrors).length > 0) {
        throw new AppError('invalid_request', `Send the secret again with the new endpoint of ${before.name}: Sesame does not send the stored secret to a different server.`, { fieldErrors });
      }
    }
    const common = {
      ...(changes.displayName !== undefined ? { displayName: changes.displayName.trim() } : {}),
      ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
      ...(changes.provisioning !== undefined ? { provisioning: changes.provisioning } : {}),
      ...(changes.linkByVerifiedEmail !== undefined ? { linkByVerifiedEmail: changes.linkByVerifiedEmail } : {}),
      ...(changes.allowedEmailDomains !== undefined ? { allowedEmailDomains: domainsOf(changes.allowedEmailDomains) } : {}),
      ...(changes.groupMapping !== undefined ? { groupMapping: { ...changes.groupMapping } } : {}),
      updatedAt: now,
    };
    if (before.type === 'oidc') {
      const { clientSecret, claims, ...oidc } = changes.oidc ?? {};
      const secretSealed = clientSecret !== undefined ? await seal(repos, clientSecret, before.name) : before.secretSealed;
      const settings = Object.fromEntries(Object.entries(oidc).filter(([, value]) => value !== undefined));
      return { ...before, ...common, oidc: { ...before.oidc, ...settings, claims: { ...before.oidc.claims, ...claims } }, secretSealed, hasClientSecret: secretSealed !== null };
    }
    const { bindPassword, attributes, ...ldap } = changes.ldap ?? {};
    const secretSealed = bindPassword !== undefined ? await seal(repos, bindPassword, before.name) : before.secretSealed;
    const settings = Object.fromEntries(Object.entries(ldap).filter(([, value]) => value !== undefined));
    const after = { ...before, ...common, ldap: { ...before.ldap, ...settings, attributes: { ...before.ldap.attributes, ...attributes } }, secretSealed, hasBindPassword: secretSealed !== null };
    const transport = directoryTransportProblem(after.ldap.url, after.ldap.startTls);
    if (transport && (changes.ldap?.url !== undefined || changes.ldap?.startTls !== undefined)) throw insecureDirectory(before.name, { 'ldap.url': transport });
    return after;
  }

  async function upstreamSecret(repos: Repositories, provider: StoredIdentityProvider): Promise<string | null> {
    if (provider.secretSealed === null) return null;
    const secret = openSealedText(provider.secretSealed, provider.name, await keyEncryptionSecretOf(deps, repos), PROVIDER_SECRETS);
    if (secret === null) throw new Error(`The secret of identity provider ${provider.name} cannot be decrypted: OIDC_KEY_ENCRYPTION_SECRET differs from the one it was stored with`);
    return secret;
  }

  return {
    /**
     * The first-deployment file's `identityProviders` (checked by src/startup/first-deployment.ts): imported once,
     * while no provider exists, in one transaction.
     * An OpenID Connect issuer is not discovered here (the upstream may not be up when Sesame first starts): the
     * first "Continue with" discovers it, and an administrator's change checks it again.
     */
    async importProviders(actor: Actor, inputs: readonly CreateIdentityProviderInput[]): Promise<{ imported: string[] }> {
      requireAdmin(actor);
      if (inputs.length === 0 || (await store.repos.identityProviders.list()).length > 0) return { imported: [] };
      return store.transaction(async (repos) => {
        if ((await repos.identityProviders.list()).length > 0) return { imported: [] };
        const now = clock.now();
        for (const [index, input] of inputs.entries()) {
          const secret = input.type === 'oidc' ? input.oidc?.clientSecret : input.ldap?.bindPassword;
          const provider = build(input, now, index + 1, await seal(repos, secret, input.name));
          await repos.identityProviders.insert(provider);
          await writeAudit(repos, clock, actor, { action: 'identity_provider.import', targetType: 'identity_provider', targetId: provider.name, after: audited(provider) });
        }
        return { imported: inputs.map((input) => input.name) };
      });
    },

    async listProviders(actor: Actor): Promise<IdentityProvider[]> {
      requireAdmin(actor);
      return (await store.repos.identityProviders.list()).map(withoutSecret);
    },

    async addProvider(actor: Actor, input: CreateIdentityProviderInput): Promise<IdentityProvider> {
      requireAdmin(actor);
      const transport = transportErrors(input);
      if (Object.keys(transport).length > 0) throw insecureDirectory(input.name, transport);
      if (await store.repos.identityProviders.find(input.name)) {
        throw new AppError('invalid_request', `An identity provider is already named ${input.name}; choose another name.`, { fieldErrors: { name: 'already taken' } });
      }
      if (input.type === 'oidc') await checkUpstreamDiscovery(input.oidc!.issuer, input.oidc!.clientId, input.oidc!.clientSecret ?? null);
      return store.transaction(async (repos) => {
        const now = clock.now();
        const secret = input.type === 'oidc' ? input.oidc?.clientSecret : input.ldap?.bindPassword;
        const provider = build(input, now, await repos.identityProviders.nextPosition(), await seal(repos, secret, input.name));
        if (!(await repos.identityProviders.insert(provider))) {
          throw new AppError('invalid_request', `An identity provider is already named ${input.name}; choose another name.`, { fieldErrors: { name: 'already taken' } });
        }
        await writeAudit(repos, clock, actor, { action: 'identity_provider.create', targetType: 'identity_provider', targetId: provider.name, after: audited(provider) });
        return withoutSecret(provider);
      });
    },

    async changeProvider(actor: Actor, name: string, changes: UpdateIdentityProviderInput): Promise<IdentityProvider> {
      requireAdmin(actor);
      const current = await store.repos.identityProviders.find(name);
      if (!current) throw notFound(name);
      if (current.version !== changes.expectedVersion) throw conflict(name, current.version);
      const preview = await changed(store.repos, current, changes, clock.now());
      const upstreamChanged = preview.type === 'oidc' && current.type === 'oidc' && (preview.oidc.issuer !== current.oidc.issuer || preview.oidc.clientId !== current.oidc.clientId || (preview.enabled && !current.enabled));
      if (preview.type === 'oidc' && upstreamChanged) {
        await checkUpstreamDiscovery(preview.oidc.issuer, preview.oidc.clientId, await upstreamSecret(store.repos, preview));
      }
      return store.transaction(async (repos) => {
        const before = await repos.identityProviders.find(name);
        if (!before) throw notFound(name);
        const after = await changed(repos, before, changes, clock.now());
        if (!(await repos.identityProviders.replaceIfVersion(after, changes.expectedVersion))) throw conflict(name, before.version);
        const stored = { ...after, version: changes.expectedVersion + 1 };
        await writeAudit(repos, clock, actor, { action: 'identity_provider.update', targetType: 'identity_provider', targetId: name, before: audited(before), after: audited(stored) });
        return withoutSecret(stored);
      });
    },

    /** Removes the provider and every link through it (people keep their accounts; audited with the count). */
    async removeProvider(actor: Actor, name: string, expectedVersion: number): Promise<void> {
      requireAdmin(actor);
      await store.transaction(async (repos) => {
        const before = await repos.identityProviders.find(name);
        if (!before) throw notFound(name);
        if (!(await repos.identityProviders.removeIfVersion(name, expectedVersion))) throw conflict(name, before.version);
        const unlinked = await repos.upstreamIdentities.removeAllOfProvider(name);
        const removedMemberships = await repos.groups.removeAllFromSource(providerMembershipSource(before.type, name));
        await writeAudit(repos, clock, actor, {
          action: 'identity_provider.delete',
          targetType: 'identity_provider',
          targetId: name,
          before: audited(before),
          after: { unlinkedIdentities: unlinked.length, ...(removedMemberships > 0 ? { removedGroupMemberships: removedMemberships } : {}) },
        });
      });
    },

    /** The enabled providers of a type, in their order: the login page's buttons, the directories a password is tried at. */
    async enabledProviders(type: IdentityProvider['type']): Promise<IdentityProvider[]> {
      return (await store.repos.identityProviders.list()).filter((provider) => provider.enabled && provider.type === type).map(withoutSecret);
    },

    /** An enabled provider with its secret in clear (client secret or bind password), for the sign-in flows only. */
    async providerForSignIn(name: string): Promise<{ provider: IdentityProvider; secret: string | null } | null> {
      const provider = await store.repos.identityProviders.find(name);
      if (!provider || !provider.enabled) return null;
      return { provider: withoutSecret(provider), secret: await upstreamSecret(store.repos, provider) };
    },
  };
}

export type IdentityProviderService = ReturnType<typeof createIdentityProviderService>;

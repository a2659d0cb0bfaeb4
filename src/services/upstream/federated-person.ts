import { accountNameProblem, displayNameProblem, emailProblem, type User } from '../../domain/accounts.ts';
import type { Actor } from '../../domain/actor.ts';
import { newIdentityId, newSubjectId } from '../../domain/ids.ts';
import { emailDomainAllowed, type StoredIdentityProvider, type UpstreamIdentity } from '../../domain/identity-providers.ts';
import { AppError } from '../../errors.ts';
import type { Repositories } from '../../storage/store.ts';
import { writeAudit } from '../shared/audit.ts';
import { changedFields } from '../shared/audit-diff.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { replaceProviderMemberships } from '../people/groups.ts';
import { NO_PASSWORD_HASH } from '../sign-in/passwords.ts';

/** What the upstream says about the person, already mapped through the provider's claim or attribute mapping. */
export interface UpstreamAttributes {
  account: string | null;
  displayName: string | null;
  email: string | null;
  /** True only when the upstream itself says the address is verified (an OIDC `email_verified: true`). */
  emailVerified: boolean;
  /** From a directory's admin group; undefined when the provider maps no group (the person's flag is left alone). */
  isAdmin?: boolean | undefined;
  /**
   * The upstream's group names (OpenID Connect) or group DNs (LDAP), mapped through the provider's
   * `groupMapping`; undefined when the upstream said nothing (the person's memberships from it are left alone).
   */
  groups?: readonly string[] | undefined;
}

export interface FederatedSignInRequest {
  providerName: string;
  /** The upstream `iss`; for LDAP `ldap:{provider name}` (directoryIssuer). */
  issuer: string;
  /** The upstream `sub`; for LDAP the entry's `entryUUID`, else its DN. */
  subject: string;
  attributes: UpstreamAttributes;
  ip: string | null;
}

export type FederatedSignInOutcome = 'signed_in' | 'linked_by_email' | 'provisioned';

export interface FederatedSignInResult {
  user: User;
  identity: UpstreamIdentity;
  outcome: FederatedSignInOutcome;
}

export const FEDERATED_REFUSAL_REASONS = [
  'provider_unavailable',
  'email_domain_not_allowed',
  'email_unverified',
  'no_matching_account',
  'email_ambiguous',
  'account_disabled',
  'account_name_taken',
  'account_name_missing',
] as const;
export type FederatedRefusalReason = (typeof FEDERATED_REFUSAL_REASONS)[number];

/**
 * A sign-in Sesame refuses (403): the message says why and what to do, in English; `reason` and `details`
 * (the names it mentions) let a page say the same in the person's language.
 */
export class FederatedSignInRefused extends AppError {
  readonly reason: FederatedRefusalReason;
  readonly details: Readonly<Record<string, string>>;
  constructor(reason: FederatedRefusalReason, description: string, details: Record<string, string> = {}) {
    super('forbidden', description);
    this.reason = reason;
    this.details = details;
  }
}

/** Two first sign-ins of one upstream account racing: the loser reads the winner's link on its second try. */
class LinkRace extends Error {}

/** The person's fields an upstream sign-in sets, and what the audit shows of them. */
const syncedFields = (user: User) => ({ displayName: user.displayName, email: user.email, emailVerified: user.emailVerified, isAdmin: user.isAdmin });

function cleanEmail(email: string | null): string | null {
  const trimmed = email?.trim() ?? '';
  return trimmed !== '' && emailProblem(trimmed) === undefined ? trimmed : null;
}

function cleanDisplayName(displayName: string | null): string | null {
  const trimmed = displayName?.trim() ?? '';
  return trimmed !== '' && displayNameProblem(trimmed) === undefined ? trimmed : null;
}

/**
 * Signs a person in through an upstream identity provider (OpenID Connect or LDAP): one use case for both.
 * Finds the person linked to (provider, issuer, subject); otherwise links the one person whose verified
 * address is the upstream's verified address, when the provider allows it; otherwise creates the person,
 * when the provider provisions. Every sign-in refreshes the mapped attributes; links and provisioning are
 * audited with surface `system`.
 */
export function createFederatedSignInService({ store, clock }: ServiceDeps) {
  const systemActorFor = (subjectId: string | null, ip: string | null): Actor => ({ subjectId, isAdmin: false, surface: 'system', ip });

  /** The person's fields after this sign-in: what the upstream says now, an unverified address never marked verified. */
  function refreshed(user: User, attributes: UpstreamAttributes, email: string | null): User {
    const displayName = cleanDisplayName(attributes.displayName) ?? user.displayName;
    const nextEmail = email ?? user.email;
    const sameAddress = nextEmail?.toLowerCase() === user.email?.toLowerCase();
    const emailVerified = email !== null ? attributes.emailVerified || (sameAddress && user.emailVerified) : user.emailVerified;
    return { ...user, displayName, email: nextEmail, emailVerified, isAdmin: attributes.isAdmin ?? user.isAdmin };
  }

  /** A verified address belongs to one account: one another person holds verified is kept unverified here. */
  async function verifiedHere(repos: Repositories, email: string | null, verified: boolean, subjectId: string): Promise<boolean> {
    if (!verified || email === null) return false;
    return !(await repos.users.listByVerifiedEmail(email)).some((holder) => holder.subjectId !== subjectId);
  }

  async function refresh(repos: Repositories, user: User, attributes: UpstreamAttributes, email: string | null, actor: Actor): Promise<User> {
    const now = clock.now();
    const proposed = refreshed(user, attributes, email);
    const after = { ...proposed, emailVerified: await verifiedHere(repos, proposed.email, proposed.emailVerified, user.subjectId) };
    const diff = changedFields(syncedFields(user), syncedFields(after));
    if (!diff.changed) return user;
    await repos.users.update(user.subjectId, syncedFields(after), now);
    await writeAudit(repos, clock, actor, { action: 'user.update', targetType: 'user', targetId: user.subjectId, before: diff.before, after: diff.after });
    return { ...after, updatedAt: now };
  }

  async function link(repos: Repositories, provider: StoredIdentityProvider, request: FederatedSignInRequest, user: User, how: 'email' | 'provisioning'): Promise<UpstreamIdentity> {
    const now = clock.now();
    const identity: UpstreamIdentity = { identityId: newIdentityId(), providerName: provider.name, issuer: request.issuer, subject: request.subject, subjectId: user.subjectId, createdAt: now, lastSignInAt: now };
    if (!(await repos.upstreamIdentities.insert(identity))) throw new LinkRace();
    await writeAudit(repos, clock, systemActorFor(user.subjectId, request.ip), {
      action: 'identity.link',
      targetType: 'user',
      targetId: user.subjectId,
      after: { identityId: identity.identityId, provider: provider.name, issuer: request.issuer, subject: request.subject, linkedBy: how },
    });
    return identity;
  }

  function requireActive(user: User, provider: StoredIdentityProvider): void {
    if (user.status !== 'active') {
      throw new FederatedSignInRefused('account_disabled', `Your Sesame account ${user.account} is disabled, so signing in with ${provider.displayName} is refused. Ask an administrator to enable it.`, {
        account: user.account,
        provider: provider.displayName,
      });
    }
  }

  async function provision(repos: Repositories, provider: StoredIdentityProvider, request: FederatedSignInRequest, email: string | null): Promise<User> {
    const account = request.attributes.account?.trim() ?? '';
    if (account === '' || accountNameProblem(account) !== undefined) {
      throw new FederatedSignInRefused(
        'account_name_missing',
        `${provider.displayName} sent no usable account name (${account === '' ? 'none' : `"${account}" is not one`}), so Sesame cannot create your account. Ask an administrator to check the provider's account mapping.`,
        { provider: provider.displayName },
      );
    }
    const now = clock.now();
    const subjectId = newSubjectId();
    const user: User = {
      subjectId,
      account,
      displayName: cleanDisplayName(request.attributes.displayName) ?? account,
      email,
      emailVerified: await verifiedHere(repos, email, request.attributes.emailVerified, subjectId),
      studentStatus: 'unknown',
      isAdmin: request.attributes.isAdmin ?? false,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
    if (!(await repos.users.insert(user, NO_PASSWORD_HASH))) {
      if (await repos.upstreamIdentities.findByUpstream(provider.name, request.issuer, request.subject)) throw new LinkRace();
      throw new FederatedSignInRefused(
        'account_name_taken',
        `A different Sesame account is already named ${account}, so Sesame cannot create yours. Ask an administrator to link your ${provider.displayName} account to it, or to rename one of them.`,
        { account, provider: provider.displayName },
      );
    }
    await writeAudit(repos, clock, systemActorFor(user.subjectId, request.ip), {
      action: 'user.create',
      targetType: 'user',
      targetId: user.subjectId,
      after: { account: user.account, ...syncedFields(user), status: user.status, provisionedBy: provider.name },
    });
    return user;
  }

  async function attempt(provider: StoredIdentityProvider, request: FederatedSignInRequest, email: string | null): Promise<FederatedSignInResult> {
    return store.transaction(async (repos) => {
      const linked = await repos.upstreamIdentities.findByUpstream(provider.name, request.issuer, request.subject);
      if (linked) {
        const user = await repos.users.findBySubjectId(linked.subjectId);
        if (!user) throw new Error(`upstream identity ${linked.identityId} names no person`);
        requireActive(user, provider);
        await repos.upstreamIdentities.recordSignIn(linked.identityId, clock.now());
        const updated = await refresh(repos, user, request.attributes, email, systemActorFor(user.subjectId, request.ip));
        return { user: updated, identity: { ...linked, lastSignInAt: clock.now() }, outcome: 'signed_in' };
      }

      // An unverified upstream address never links: whoever controls the upstream account could claim any address.
      if (provider.linkByVerifiedEmail && email !== null && request.attributes.emailVerified) {
        const matches = await repos.users.listByVerifiedEmail(email);
        if (matches.length > 1) {
          throw new FederatedSignInRefused('email_ambiguous', `More than one Sesame account has the address ${email}, so Sesame cannot tell which is yours. Ask an administrator to resolve it.`, { email });
        }
        const match = matches[0];
        if (match) {
          requireActive(match, provider);
          const identity = await link(repos, provider, request, match, 'email');
          const updated = await refresh(repos, match, request.attributes, email, systemActorFor(match.subjectId, request.ip));
          return { user: updated, identity, outcome: 'linked_by_email' };
        }
      }

      if (provider.provisioning !== 'create') {
        throw new FederatedSignInRefused(
          'no_matching_account',
          `Your ${provider.displayName} account is not linked to a Sesame account, and this provider only signs in people who already have one. Ask an administrator to create your account.`,
          { provider: provider.displayName },
        );
      }
      const user = await provision(repos, provider, request, email);
      const identity = await link(repos, provider, request, user, 'provisioning');
      return { user, identity, outcome: 'provisioned' };
    });
  }

  /** The provider's memberships of the person, replaced by what this sign-in says (section 16); nothing when it said nothing. */
  async function syncUpstreamGroups(provider: StoredIdentityProvider, subjectId: string, request: FederatedSignInRequest): Promise<void> {
    const upstreamGroups = request.attributes.groups;
    if (upstreamGroups === undefined) return;
    await store.transaction((repos) =>
      replaceProviderMemberships(repos, { clock }, systemActorFor(subjectId, request.ip), subjectId, { type: provider.type, providerName: provider.name, groupMapping: provider.groupMapping ?? {}, upstreamGroups }),
    );
  }

  return {
    /** Refusals are FederatedSignInRefused (403 forbidden, with a `reason` for the page). */
    async signIn(request: FederatedSignInRequest): Promise<FederatedSignInResult> {
      const provider = await store.repos.identityProviders.find(request.providerName);
      if (!provider || !provider.enabled) {
        throw new FederatedSignInRefused('provider_unavailable', `The sign-in provider ${request.providerName} is not available. Go back and choose another way to sign in.`, {
          provider: request.providerName,
        });
      }
      const email = cleanEmail(request.attributes.email);
      if (!emailDomainAllowed(provider.allowedEmailDomains, email)) {
        throw new FederatedSignInRefused(
          'email_domain_not_allowed',
          email === null
            ? `${provider.displayName} did not give an email address, and only addresses at ${provider.allowedEmailDomains.join(', ')} may sign in here.`
            : `The address ${email} is not at a domain allowed to sign in with ${provider.displayName} (${provider.allowedEmailDomains.join(', ')}). Sign in with an account of an allowed domain.`,
          { provider: provider.displayName, domains: provider.allowedEmailDomains.join(', '), ...(email === null ? {} : { email }) },
        );
      }
      // Anyone can type an address at the right domain into an upstream account; only one the upstream
      // verified proves membership. A directory's mail attribute is the directory's own record (it marks
      // nothing verified), so there the domain alone decides.
      if (provider.allowedEmailDomains.length > 0 && provider.type === 'oidc' && !request.attributes.emailVerified) {
        throw new FederatedSignInRefused(
          'email_unverified',
          `${provider.displayName} did not confirm that ${email} is verified, and only verified addresses at ${provider.allowedEmailDomains.join(', ')} may sign in here. Verify the address at ${provider.displayName}, then sign in again.`,
          { provider: provider.displayName, domains: provider.allowedEmailDomains.join(', '), email: email ?? '' },
        );
      }
      const result = await attempt(provider, request, email).catch((error: unknown) => {
        if (!(error instanceof LinkRace)) throw error;
        return attempt(provider, request, email);
      });
      await syncUpstreamGroups(provider, result.user.subjectId, request);
      return result;
    },
  };
}

export type FederatedSignInService = ReturnType<typeof createFederatedSignInService>;

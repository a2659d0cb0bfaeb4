// Upstream identity (DESIGN.md section 11): OpenID Connect providers and LDAP directories that
// people sign in through. The admin contracts, the repository, the upstream OIDC flow and the
// directory bind all take their shapes and defaults from here.

export const IDENTITY_PROVIDER_TYPES = ['oidc', 'ldap'] as const;
export type IdentityProviderType = (typeof IDENTITY_PROVIDER_TYPES)[number];

/** Whether a first sign-in through the provider creates the person or needs them to exist already. */
export const PROVISIONING_MODES = ['create', 'existing_only'] as const;
export type ProvisioningMode = (typeof PROVISIONING_MODES)[number];

/** A provider's name is a slug: it appears in `{issuer}/upstream/{name}/callback`. */
export const IDENTITY_PROVIDER_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export const DEFAULT_UPSTREAM_SCOPES = ['openid', 'profile', 'email'] as const;

/** Which upstream claim gives each of a person's attributes. */
export interface UpstreamClaimMapping {
  account: string;
  displayName: string;
  email: string;
  emailVerified: string;
}

export const DEFAULT_UPSTREAM_CLAIMS: UpstreamClaimMapping = {
  account: 'preferred_username',
  displayName: 'name',
  email: 'email',
  emailVerified: 'email_verified',
};

/** Which directory attribute gives each of a person's attributes. */
export interface DirectoryAttributeMapping {
  account: string;
  displayName: string;
  email: string;
}

export const DEFAULT_DIRECTORY_ATTRIBUTES: DirectoryAttributeMapping = {
  account: 'uid',
  displayName: 'cn',
  email: 'mail',
};

/** `{account}` is replaced by the RFC 4515-escaped account name typed at the login page. */
export const DEFAULT_USER_SEARCH_FILTER = '(uid={account})';

/** Upstream OIDC settings as stored; the client secret is sealed and never leaves the server. */
export interface UpstreamOidcSettings {
  issuer: string;
  clientId: string;
  scopes: string[];
  claims: UpstreamClaimMapping;
}

/** LDAP settings as stored; the bind password is sealed and never leaves the server. */
export interface DirectorySettings {
  url: string;
  startTls: boolean;
  bindDn: string;
  userSearchBase: string;
  userSearchFilter: string;
  attributes: DirectoryAttributeMapping;
  adminGroupDn: string | null;
}

interface IdentityProviderCommon {
  name: string;
  displayName: string;
  enabled: boolean;
  provisioning: ProvisioningMode;
  linkByVerifiedEmail: boolean;
  /** Lower-case domains; empty means every domain. */
  allowedEmailDomains: string[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type IdentityProvider =
  | (IdentityProviderCommon & { type: 'oidc'; oidc: UpstreamOidcSettings; hasClientSecret: boolean })
  | (IdentityProviderCommon & { type: 'ldap'; ldap: DirectorySettings; hasBindPassword: boolean });

/** Whether an email's domain is one the provider lets in. */
export function emailDomainAllowed(allowedEmailDomains: readonly string[], email: string | null): boolean {
  if (allowedEmailDomains.length === 0) return true;
  if (!email) return false;
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return allowedEmailDomains.includes(domain);
}

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
  /** A claim holding the person's upstream group names; absent: groups are not read. */
  groups?: string;
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
  /** Where the person's groups are searched; absent or null: groups are not read. */
  groupSearchBase?: string | null;
  /** `{dn}` is replaced by the escaped DN of the person's entry; default DEFAULT_GROUP_SEARCH_FILTER. */
  groupSearchFilter?: string;
}

export const DEFAULT_GROUP_SEARCH_FILTER = '(member={dn})';

interface IdentityProviderCommon {
  name: string;
  displayName: string;
  enabled: boolean;
  provisioning: ProvisioningMode;
  linkByVerifiedEmail: boolean;
  /** Lower-case domains; empty means every domain. */
  allowedEmailDomains: string[];
  /** `{"<upstream group name, or LDAP group DN>": "<group name>"}`; a sign-in through the provider sets the mapped memberships. Absent: none. */
  groupMapping?: Record<string, string>;
  version: number;
  /** Epoch milliseconds, like every domain time; the contracts show ISO-8601. */
  createdAt: number;
  updatedAt: number;
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

/** A provider as stored: the domain shape with its order and the sealed secret (client secret or bind password). */
export type StoredIdentityProvider = IdentityProvider & {
  /** Directories are tried in this order at the login form; upstream buttons are shown in it. */
  position: number;
  /** AES-256-GCM under the key-encryption secret, bound to the provider's name; null when none was given. */
  secretSealed: string | null;
};

/** The link from one upstream account (issuer + subject at one provider) to one Sesame person. */
export interface UpstreamIdentity {
  identityId: string;
  providerName: string;
  /** The upstream `iss` for OpenID Connect; `ldap:{provider name}` for LDAP (the directory's URL may change). */
  issuer: string;
  /** The upstream `sub`; for LDAP the entry's `entryUUID`, else its DN (a DN changes when an entry is renamed). */
  subject: string;
  subjectId: string;
  createdAt: number;
  lastSignInAt: number | null;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why an upstream issuer URL is refused: https, or http on loopback only (a provider on the same machine). */
export function upstreamIssuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) return 'must use https (http only on localhost, 127.0.0.1 or [::1])';
  if (url.hash !== '' || url.search !== '') return 'must not contain a query or fragment';
  return undefined;
}

/** Why a directory URL is refused: ldap:// (optionally with StartTLS) or ldaps://. */
export function directoryUrlProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'ldap:' || url.protocol === 'ldaps:' ? undefined : 'must start with ldap:// or ldaps://';
  } catch {
    return 'must be an absolute ldap:// or ldaps:// URL';
  }
}

const isLoopbackHost = (host: string): boolean => {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
};

/**
 * Why a directory's transport is refused: the bind password and every person's password cross it, so
 * plain ldap:// needs `startTls: true` unless the directory is on this machine (a loopback address).
 */
export function directoryTransportProblem(value: string, startTls: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'ldap:' || startTls || isLoopbackHost(url.hostname)) return undefined;
  return 'sends passwords in clear: use ldaps://, or set startTls: true (plain ldap:// only to a loopback address)';
}

const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Why an allowed email domain is refused (after lower-casing). */
export const emailDomainProblem = (domain: string): string | undefined => (DOMAIN_PATTERN.test(domain) ? undefined : 'must be a domain name such as example.edu');

/** Sesame's redirect URI at an upstream provider: its own callback, nothing else. */
export const upstreamRedirectUri = (issuer: string, name: string): string => `${issuer.replace(/\/$/, '')}/upstream/${name}/callback`;

/**
 * Who an upstream's answer is for: an OIDC interaction (its uid), or a console sign-in of one browser
 * (`browser`, the digest of its login-CSRF nonce; `next`, the console path to return to).
 */
export type UpstreamSignInPurpose = { interaction: string } | { console: { browser: string; next: string } };

/** What Sesame keeps (server side) between sending the browser upstream and its return, besides the state that names it. */
export interface UpstreamSignInChecks {
  provider: string;
  nonce: string;
  codeVerifier: string;
  purpose: UpstreamSignInPurpose;
}

/** A console sign-in an upstream confirmed, waiting for the browser that started it. */
export interface HeldConsoleSignIn {
  subjectId: string;
  provider: string;
}

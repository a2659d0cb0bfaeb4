import type { DirectoryAttributeMapping, IdentityProviderType, ProvisioningMode, UpstreamClaimMapping } from '../../domain/identity-providers.ts';

// What the identity-provider use cases take. The zod contracts (src/api/contracts/identity-providers.ts) and the
// first-deployment document (src/startup/first-deployment.ts) have judged its shape already.

type Optional<T> = { [K in keyof T]?: T[K] | undefined };

export interface UpstreamOidcInput {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  scopes?: string[] | undefined;
  claims?: Optional<UpstreamClaimMapping> | undefined;
}

export interface DirectoryInput {
  url: string;
  startTls?: boolean | undefined;
  bindDn: string;
  bindPassword?: string | undefined;
  userSearchBase: string;
  userSearchFilter?: string | undefined;
  attributes?: Optional<DirectoryAttributeMapping> | undefined;
  adminGroupDn?: string | null | undefined;
  groupSearchBase?: string | null | undefined;
  groupSearchFilter?: string | undefined;
}

/** `{"<upstream group name, or LDAP group DN>": "<Sesame group name>"}`. */
export type GroupMappingInput = Record<string, string>;

export interface CreateIdentityProviderInput {
  type: IdentityProviderType;
  name: string;
  displayName: string;
  enabled?: boolean | undefined;
  provisioning: ProvisioningMode;
  linkByVerifiedEmail?: boolean | undefined;
  allowedEmailDomains?: string[] | undefined;
  oidc?: UpstreamOidcInput | undefined;
  ldap?: DirectoryInput | undefined;
  groupMapping?: GroupMappingInput | undefined;
}

export interface UpdateIdentityProviderInput {
  expectedVersion: number;
  displayName?: string | undefined;
  enabled?: boolean | undefined;
  provisioning?: ProvisioningMode | undefined;
  linkByVerifiedEmail?: boolean | undefined;
  allowedEmailDomains?: string[] | undefined;
  oidc?: Optional<UpstreamOidcInput> | undefined;
  ldap?: Optional<DirectoryInput> | undefined;
  groupMapping?: GroupMappingInput | undefined;
}

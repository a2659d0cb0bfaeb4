// Groups (DESIGN.md section 16): named sets of people that applications authorise with, released as
// the `groups` claim. The admin contracts, the repository, the claim and the upstream mapping all
// take their shapes and rules from here.

import { IDENTITY_PROVIDER_NAME_PATTERN, type IdentityProviderType } from './identity-providers.ts';

/** A group's name is a slug, by the identity-provider name rule: it is what applications see in the claim. */
export const GROUP_NAME_PATTERN = IDENTITY_PROVIDER_NAME_PATTERN;
export const GROUP_NAME_RULE = 'must be a slug: 1-40 lower-case letters, digits and -, starting and ending with a letter or digit';

export const GROUP_DESCRIPTION_MAX_LENGTH = 2000;

/** Most entries a provider's `groupMapping` may hold. */
export const GROUP_MAPPING_MAX_ENTRIES = 500;

export interface Group {
  name: string;
  displayName: string;
  description: string;
  memberCount: number;
  version: number;
  /** Epoch milliseconds, like every domain time; the contracts show ISO-8601. */
  createdAt: number;
  updatedAt: number;
}

/** Who manages a membership: the administrators (`local`), or the identity provider that maps it at each sign-in. */
export type MembershipSource = 'local' | `${IdentityProviderType}:${string}`;

export const LOCAL_MEMBERSHIP: MembershipSource = 'local';

export const providerMembershipSource = (type: IdentityProviderType, providerName: string): MembershipSource => `${type}:${providerName}`;

export interface GroupMember {
  subjectId: string;
  account: string;
  displayName: string;
  source: MembershipSource;
}

// Enough for comparing DNs a directory wrote: case and the spaces after commas are not significant.
export const normalizeDn = (dn: string): string => dn.trim().replace(/\s*,\s*/g, ',').replace(/\s*=\s*/g, '=').toLowerCase();

/**
 * The Sesame groups an upstream's groups map to, through a provider's `groupMapping`: unmapped names are
 * dropped; keys compare exactly for an OpenID Connect provider, as DNs (case-insensitively) for a directory.
 */
export function mappedGroupNames(type: IdentityProviderType, mapping: Readonly<Record<string, string>>, upstreamGroups: readonly string[]): string[] {
  const key = type === 'ldap' ? normalizeDn : (value: string) => value;
  const byKey = new Map(Object.entries(mapping).map(([upstream, group]) => [key(upstream), group]));
  const mapped = new Set<string>();
  for (const upstream of upstreamGroups) {
    const group = byKey.get(key(upstream));
    if (group !== undefined) mapped.add(group);
  }
  return [...mapped].sort();
}

export const PROJECT_ROLES = ['owner', 'maintainer', 'viewer'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** Roles a member can be given directly; `owner` changes hands only by transfer. */
export const ASSIGNABLE_ROLES = ['maintainer', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export const CAPABILITIES = ['read', 'write_clients', 'manage_members', 'manage_project'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** viewer reads; maintainer also writes clients and secrets; owner also manages members and the project. */
export const ROLE_CAPABILITIES: Record<ProjectRole, readonly Capability[]> = {
  viewer: ['read'],
  maintainer: ['read', 'write_clients'],
  owner: ['read', 'write_clients', 'manage_members', 'manage_project'],
};

/** What a role is for, in a few words (the console's role pickers, the agent guide). */
export const ROLE_DESCRIPTIONS: Record<ProjectRole, string> = {
  owner: 'edits the project, manages members and clients',
  maintainer: 'registers and changes clients, rotates secrets',
  viewer: 'reads everything, changes nothing',
};

/** What a capability allows, as the completion of "you may ...". */
export const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  read: 'read the project, its members, clients and audit trail',
  write_clients: 'register clients, change their metadata and OIDC configuration, rotate and revoke secrets',
  manage_members: 'add members, change roles, remove members, transfer ownership',
  manage_project: 'rename, describe, archive and un-archive the project',
};

const rolesHolding = (capability: Capability) => PROJECT_ROLES.filter((role) => ROLE_CAPABILITIES[role].includes(capability));

/** A capability as a refusal names it: what it allows, and which roles hold it when not every role does. */
export const CAPABILITY_WITH_ROLES = Object.fromEntries(
  CAPABILITIES.map((capability) => {
    const holders = rolesHolding(capability);
    const who = holders.length === PROJECT_ROLES.length ? '' : holders.length === 1 ? ` (${holders[0]} only)` : ` (${holders.join(' or ')})`;
    return [capability, `${CAPABILITY_DESCRIPTIONS[capability]}${who}`];
  }),
) as Record<Capability, string>;

/** What an ownership transfer does to the old owner, as the guide and the operation's documentation both say it. */
export const OWNERSHIP_TRANSFER_RESULT =
  'The old owner\'s `role` becomes `maintainer`, administrators included; an administrator keeps every capability (see `capabilities`), as administrators act as owner on every project.';

export function capabilitiesOf(role: ProjectRole | null, isAdmin: boolean): readonly Capability[] {
  if (isAdmin) return ROLE_CAPABILITIES.owner;
  return role ? ROLE_CAPABILITIES[role] : [];
}

/** What the caller may still do while a project is archived: read it, and un-archive it if they may manage it. */
const ARCHIVED_CAPABILITIES: readonly Capability[] = ['read', 'manage_project'];

/**
 * The capabilities a project shows its caller (DESIGN 5): the role's, except while the project is
 * archived, when only reading and (for whoever may un-archive it) managing the project remain.
 */
export function shownCapabilities(role: ProjectRole | null, isAdmin: boolean, status: 'active' | 'archived'): readonly Capability[] {
  const held = capabilitiesOf(role, isAdmin);
  return status === 'archived' ? held.filter((capability) => ARCHIVED_CAPABILITIES.includes(capability)) : held;
}

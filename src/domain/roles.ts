export const PROJECT_ROLES = ['owner', 'maintainer', 'viewer'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const CAPABILITIES = ['read', 'write_clients', 'manage_members', 'manage_project'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** viewer reads; maintainer also writes clients and secrets; owner also manages members and the project. */
export const ROLE_CAPABILITIES: Record<ProjectRole, readonly Capability[]> = {
  viewer: ['read'],
  maintainer: ['read', 'write_clients'],
  owner: ['read', 'write_clients', 'manage_members', 'manage_project'],
};

export function capabilitiesOf(role: ProjectRole | null, isAdmin: boolean): readonly Capability[] {
  if (isAdmin) return ROLE_CAPABILITIES.owner;
  return role ? ROLE_CAPABILITIES[role] : [];
}

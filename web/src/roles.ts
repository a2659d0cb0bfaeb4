import type { Capability } from '../../src/domain/roles.ts';
import type { Project } from './api/types.ts';
import type { BadgeTone } from './components/badge.tsx';
import { t } from './i18n.ts';

/** Whether the caller may do this here now: archived projects refuse every write but un-archiving. */
export function can(project: Project, capability: Capability): boolean {
  return project.capabilities.includes(capability) && (project.status === 'active' || capability === 'read');
}

export function roleLabel(project: Project): string {
  return project.role ?? 'administrator';
}

/** A role's name in the console's language (`roleLabel` stays the code the tones and tests key on). */
export function roleName(role: string): string {
  return role === 'owner' || role === 'maintainer' || role === 'viewer' || role === 'administrator' ? t(`console.role.${role}`) : role;
}

export const ROLE_TONE: Record<string, BadgeTone> = { owner: 'accent', maintainer: 'success', viewer: 'neutral', administrator: 'warning' };

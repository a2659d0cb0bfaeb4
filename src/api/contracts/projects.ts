import { z } from 'zod';
import { CAPABILITIES, PROJECT_ROLES } from '../../domain/roles.ts';
import { PROJECT_STATUSES } from '../../domain/statuses.ts';
import { PROJECT_LIMITS } from '../../domain/text-fields.ts';
import type { Project } from '../../domain/views.ts';
import { projectVersion, readableText, timestamp, toIso } from './common.ts';

export const projectJson = z
  .object({
    projectId: z.string(),
    name: z.string(),
    description: z.string(),
    status: z.enum(PROJECT_STATUSES).meta({ description: 'An archived project is read-only and its clients cannot sign anyone in.' }),
    version: z.number().int().meta({ description: 'Optimistic-lock version; send it back as `expectedProjectVersion` when changing the project or its members.' }),
    role: z.enum(PROJECT_ROLES).nullable().meta({ description: 'Your role in the project; null for an administrator who is not a member.' }),
    capabilities: z.array(z.enum(CAPABILITIES)).meta({ description: 'What you may do here.' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Project' });

export type ProjectJson = z.infer<typeof projectJson>;

export function presentProject(project: Project): ProjectJson {
  return {
    projectId: project.projectId,
    name: project.name,
    description: project.description,
    status: project.status,
    version: project.version,
    role: project.role,
    capabilities: [...project.capabilities],
    createdAt: toIso(project.createdAt),
    updatedAt: toIso(project.updatedAt),
  };
}

export const projectResponse = z.object({ project: projectJson });
export const projectListResponse = z.object({ projects: z.array(projectJson) });

export const createProjectRequest = z
  .object({
    name: readableText().meta({ description: 'Required; one line.', maxLength: PROJECT_LIMITS.maxNameLength }),
    description: readableText().optional().meta({ maxLength: PROJECT_LIMITS.maxDescriptionLength }),
  })
  .strict();

export const deleteProjectRequest = z.object({ expectedProjectVersion: projectVersion }).strict();

export const updateProjectRequest = z
  .object({
    expectedProjectVersion: projectVersion,
    name: readableText().optional().meta({ description: 'One line.', maxLength: PROJECT_LIMITS.maxNameLength }),
    description: readableText().optional().meta({ maxLength: PROJECT_LIMITS.maxDescriptionLength }),
    status: z.enum(PROJECT_STATUSES).optional().meta({ description: '`archived` archives the project; `active` un-archives it (owner or admin).' }),
  })
  .strict();

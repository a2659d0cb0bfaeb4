import { z } from 'zod';
import { CAPABILITIES, PROJECT_ROLES } from '../../domain/roles.ts';
import { PROJECT_STATUSES } from '../../domain/statuses.ts';
import { PROJECT_LIMITS, textProblem } from '../../domain/text-fields.ts';
import type { Project } from '../../services/types.ts';
import { projectVersion, timestamp, toIso } from './common.ts';

/**
 * A project's name and description judged by the domain's text rule in the contract, like a client's
 * fields: one answer names every problem of the request (the service checks the same for other callers).
 */
const projectText = (rules: { required: boolean; maxLength: number; singleLine?: boolean }) =>
  z.string().superRefine((value, context) => {
    const problem = textProblem(value, rules);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
const nameField = () => projectText({ required: true, maxLength: PROJECT_LIMITS.maxNameLength, singleLine: true });
const descriptionField = () => projectText({ required: false, maxLength: PROJECT_LIMITS.maxDescriptionLength });

export const projectJson = z
  .object({
    projectId: z.string(),
    name: z.string(),
    description: z.string(),
    status: z.enum(PROJECT_STATUSES).meta({ description: 'An archived project is read-only and its clients cannot sign anyone in.' }),
    version: z.number().int().meta({ description: 'Optimistic-lock version; send it back as `expectedProjectVersion` when changing the project or its members.' }),
    role: z.enum(PROJECT_ROLES).nullable().meta({ description: 'Your role in the project; null for an administrator who is not a member.' }),
    capabilities: z.array(z.enum(CAPABILITIES)).meta({ description: 'What you may do here; while the project is archived only `read` and, for whoever may un-archive it, `manage_project`.' }),
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
    name: nameField().meta({ description: 'Required; one line.', maxLength: PROJECT_LIMITS.maxNameLength }),
    description: descriptionField().optional().meta({ maxLength: PROJECT_LIMITS.maxDescriptionLength }),
  })
  .strict();

export const deleteProjectRequest = z.object({ expectedProjectVersion: projectVersion }).strict();

export const updateProjectRequest = z
  .object({
    expectedProjectVersion: projectVersion,
    name: nameField().optional().meta({ description: 'One line.', maxLength: PROJECT_LIMITS.maxNameLength }),
    description: descriptionField().optional().meta({ maxLength: PROJECT_LIMITS.maxDescriptionLength }),
    status: z.enum(PROJECT_STATUSES).optional().meta({ description: '`archived` archives the project; `active` un-archives it (owner or admin).' }),
  })
  .strict();

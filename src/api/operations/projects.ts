import { projectIdParams } from '../contracts/common.ts';
import { exampleProject } from '../contracts/examples.ts';
import { createProjectRequest, deleteProjectRequest, presentProject, projectListResponse, projectResponse, updateProjectRequest } from '../contracts/projects.ts';
import { defineOperation } from '../operation.ts';

const tag = 'Projects';

export const listProjects = defineOperation({
  operationId: 'listProjects',
  method: 'GET',
  path: '/projects',
  tag,
  summary: 'List your projects',
  description: 'The projects you are a member of, each with your `role` and `capabilities`; an administrator sees every project.',
  access: 'session',
  response: { status: 200, description: 'Your projects, oldest first.', schema: projectListResponse, example: { projects: [exampleProject] } },
  errors: [],
  async handle({ services, actor }) {
    return { projects: (await services.projects.listProjects(actor)).map(presentProject) };
  },
});

export const createProject = defineOperation({
  operationId: 'createProject',
  method: 'POST',
  path: '/projects',
  tag,
  summary: 'Create a project',
  description: 'Creates a project with you as its owner. Any signed-in user may create one.',
  access: 'session',
  body: createProjectRequest,
  bodyExample: { name: 'Course portal', description: 'Sign-in for the course portal' },
  response: { status: 201, description: 'The new project (version 1, your role owner).', schema: projectResponse, example: { project: { ...exampleProject, version: 1 } } },
  errors: ['invalid_request'],
  async handle({ services, actor, body }) {
    return { project: presentProject(await services.projects.createProject(actor, body)) };
  },
});

export const getProject = defineOperation({
  operationId: 'getProject',
  method: 'GET',
  path: '/projects/:projectId',
  tag,
  summary: 'Read a project',
  description: 'The project with its current `version` (send it as `expectedProjectVersion` when changing the project or its members).',
  access: 'session',
  params: projectIdParams,
  response: { status: 200, description: 'The project.', schema: projectResponse, example: { project: exampleProject } },
  errors: ['not_found'],
  async handle({ services, actor, params }) {
    return { project: presentProject(await services.projects.getProject(actor, params.projectId)) };
  },
});

export const updateProject = defineOperation({
  operationId: 'updateProject',
  method: 'PATCH',
  path: '/projects/:projectId',
  tag,
  summary: 'Edit, archive or un-archive a project',
  description:
    'Changes the name or description, or archives (`status: "archived"`) or un-archives (`status: "active"`) the project. Owner or administrator only. ' +
    'An archived project is read-only and its clients cannot sign anyone in until it is active again.',
  access: 'session',
  destructive: true,
  params: projectIdParams,
  body: updateProjectRequest,
  bodyExample: { expectedProjectVersion: 3, status: 'archived' },
  response: { status: 200, description: 'The changed project with its new version.', schema: projectResponse, example: { project: { ...exampleProject, status: 'archived', version: 4 } } },
  errors: ['invalid_request', 'forbidden', 'not_found', 'version_conflict', 'project_archived'],
  async handle({ services, actor, params, body }) {
    return { project: presentProject(await services.projects.updateProject(actor, params.projectId, body)) };
  },
});

export const deleteProject = defineOperation({
  operationId: 'deleteProject',
  method: 'DELETE',
  path: '/projects/:projectId',
  tag,
  summary: 'Delete an archived project',
  description:
    'Deletes an archived project for good, with its members and its clients (whose grants and tokens end at once). An active project answers 409 project_not_archived: ' +
    'archive it first. This cannot be undone: confirm with the person first. The body carries the current `expectedProjectVersion`. Owner or administrator only.',
  access: 'session',
  destructive: true,
  params: projectIdParams,
  body: deleteProjectRequest,
  bodyExample: { expectedProjectVersion: 4 },
  response: { status: 204, description: 'Deleted, with its clients.' },
  errors: ['invalid_request', 'forbidden', 'not_found', 'version_conflict', 'project_not_archived'],
  async handle({ services, actor, params, body }) {
    await services.projects.deleteProject(actor, params.projectId, body);
  },
});

export const projectOperations = [listProjects, createProject, getProject, updateProject, deleteProject];

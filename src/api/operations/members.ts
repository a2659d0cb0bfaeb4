import { OWNERSHIP_TRANSFER_RESULT } from '../../domain/roles.ts';
import { projectIdParams } from '../contracts/common.ts';
import { exampleMember, exampleProject } from '../contracts/examples.ts';
import {
  addMemberRequest,
  changeMemberRoleRequest,
  memberListResponse,
  memberParams,
  membershipResponse,
  presentMember,
  presentMembership,
  removeMemberRequest,
  transferOwnershipRequest,
} from '../contracts/members.ts';
import { presentProject, projectResponse } from '../contracts/projects.ts';
import { defineOperation } from '../operation.ts';
import { said, see } from '../../domain/pointed-text.ts';

const tag = 'Members';
const changeErrors = ['invalid_request', 'forbidden', 'not_found', 'version_conflict', 'project_archived'] as const;

export const listMembers = defineOperation({
  operationId: 'listMembers',
  method: 'GET',
  path: '/projects/:projectId/members',
  tag,
  summary: 'List a project\'s members',
  description: 'Every member with their role; any member may read it.',
  access: 'session',
  params: projectIdParams,
  response: {
    status: 200,
    description: 'The members.',
    schema: memberListResponse,
    example: { members: [{ ...exampleMember, subjectId: '0b7e6c1a-2f3d-4e5a-8b9c-1d2e3f4a5b6c', account: 'alice', displayName: 'Alice', role: 'owner' }, exampleMember] },
  },
  errors: ['not_found'],
  async handle({ services, actor, params }) {
    return { members: (await services.members.listMembers(actor, params.projectId)).map(presentMember) };
  },
});

export const addMember = defineOperation({
  operationId: 'addMember',
  method: 'POST',
  path: '/projects/:projectId/members',
  tag,
  summary: 'Add a member',
  description:
    said`Adds a user (by \`subjectId\`, found by account name with ${see('lookupUser')}) as \`maintainer\` (default) or \`viewer\`. Owner or administrator only. Send the project's current \`version\` as \`expectedProjectVersion\`; the project version goes up by one.`,
  access: 'session',
  params: projectIdParams,
  body: addMemberRequest,
  bodyExample: { subjectId: exampleMember.subjectId, role: 'maintainer', expectedProjectVersion: 3 },
  response: { status: 201, description: 'The membership and the project with its new version.', schema: membershipResponse, example: { member: exampleMember, project: { ...exampleProject, version: 4 } } },
  errors: [...changeErrors, 'member_exists'],
  async handle({ services, actor, params, body }) {
    return presentMembership(await services.members.addMember(actor, params.projectId, body));
  },
});

export const changeMemberRole = defineOperation({
  operationId: 'changeMemberRole',
  method: 'PATCH',
  path: '/projects/:projectId/members/:subjectId',
  tag,
  summary: 'Change a member\'s role',
  description: 'Makes a member `maintainer` or `viewer`. Owner or administrator only. The owner\'s own role changes only by transferring ownership.',
  access: 'session',
  params: memberParams,
  body: changeMemberRoleRequest,
  bodyExample: { role: 'viewer', expectedProjectVersion: 4 },
  response: { status: 200, description: 'The membership and the project with its new version.', schema: membershipResponse, example: { member: { ...exampleMember, role: 'viewer' }, project: { ...exampleProject, version: 5 } } },
  errors: [...changeErrors, 'last_owner'],
  async handle({ services, actor, params, body }) {
    return presentMembership(await services.members.changeMemberRole(actor, params.projectId, params.subjectId, body));
  },
});

export const removeMember = defineOperation({
  operationId: 'removeMember',
  method: 'DELETE',
  path: '/projects/:projectId/members/:subjectId',
  tag,
  summary: 'Remove a member',
  description: 'Removes a member. Owner or administrator only. The owner cannot be removed; transfer ownership first. The body carries `expectedProjectVersion`.',
  access: 'session',
  destructive: true,
  params: memberParams,
  body: removeMemberRequest,
  bodyExample: { expectedProjectVersion: 5 },
  response: { status: 200, description: 'The project with its new version.', schema: projectResponse, example: { project: { ...exampleProject, version: 6 } } },
  errors: [...changeErrors, 'last_owner'],
  async handle({ services, actor, params, body }) {
    const { project } = await services.members.removeMember(actor, params.projectId, params.subjectId, body);
    return { project: presentProject(project) };
  },
});

export const transferOwnership = defineOperation({
  operationId: 'transferOwnership',
  method: 'POST',
  path: '/projects/:projectId/ownership/transfer',
  tag,
  summary: 'Transfer ownership',
  description: `Makes another member the owner. Owner or administrator only. ${OWNERSHIP_TRANSFER_RESULT}`,
  access: 'session',
  params: projectIdParams,
  body: transferOwnershipRequest,
  bodyExample: { toSubjectId: exampleMember.subjectId, expectedProjectVersion: 4 },
  response: { status: 200, description: `The project with its new version, your \`role\` and \`capabilities\` as they are now. ${OWNERSHIP_TRANSFER_RESULT}`, schema: projectResponse, example: { project: { ...exampleProject, version: 5, role: 'maintainer', capabilities: ['read', 'write_clients'] } } },
  errors: changeErrors,
  async handle({ services, actor, params, body }) {
    const { project } = await services.members.transferOwnership(actor, params.projectId, body);
    return { project: presentProject(project) };
  },
});

export const memberOperations = [listMembers, addMember, changeMemberRole, removeMember, transferOwnership];

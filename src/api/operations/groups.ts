import { exampleTime } from '../contracts/examples.ts';
import {
  createGroupRequest,
  groupListResponse,
  groupMemberListResponse,
  groupMemberParams,
  groupParams,
  groupResponse,
  presentGroup,
  presentGroupMember,
  removeGroupRequest,
  updateGroupRequest,
  type GroupJson,
} from '../contracts/groups.ts';
import { defineOperation } from '../operation.ts';

const adminTag = 'Administration';

const exampleGroup: GroupJson = { name: 'staff', displayName: 'Staff', description: 'Everyone employed by the school', memberCount: 12, version: 1, createdAt: exampleTime };

const claimNote = 'Applications that ask for the `groups` scope receive the person\'s group names, sorted, as the `groups` claim (userinfo and the ID token).';

export const listGroups = defineOperation({
  operationId: 'listGroups',
  method: 'GET',
  path: '/admin/groups',
  tag: adminTag,
  summary: 'List groups (administrators)',
  description: `Every group with its member count, by name. ${claimNote} Administrators only.`,
  access: 'session',
  response: { status: 200, description: 'The groups.', schema: groupListResponse, example: { groups: [exampleGroup] } },
  errors: ['forbidden'],
  async handle({ services, actor }) {
    return { groups: (await services.groups.listGroups(actor)).map(presentGroup) };
  },
});

export const createGroup = defineOperation({
  operationId: 'createGroup',
  method: 'POST',
  path: '/admin/groups',
  tag: adminTag,
  summary: 'Add a group (administrators)',
  description: `Adds an empty group. \`name\` is a slug and cannot change; a taken name is 400 with \`field_errors.name\`. ${claimNote} Administrators only; audited.`,
  access: 'session',
  body: createGroupRequest,
  bodyExample: { name: 'staff', displayName: 'Staff', description: 'Everyone employed by the school' },
  response: { status: 201, description: 'The new group.', schema: groupResponse, example: { group: { ...exampleGroup, memberCount: 0 } } },
  errors: ['invalid_request', 'forbidden'],
  async handle({ services, actor, body }) {
    return { group: presentGroup(await services.groups.addGroup(actor, body)) };
  },
});

export const updateGroup = defineOperation({
  operationId: 'updateGroup',
  method: 'PATCH',
  path: '/admin/groups/:name',
  tag: adminTag,
  summary: 'Change a group (administrators)',
  description:
    'Changes the fields sent (`displayName`, `description`); the name cannot change. Send the `version` you read as `expectedVersion`; a change made meanwhile answers 409 version_conflict. ' +
    'Member changes do not change the version. Administrators only; audited.',
  access: 'session',
  params: groupParams,
  body: updateGroupRequest,
  bodyExample: { expectedVersion: 1, displayName: 'All staff' },
  response: { status: 200, description: 'The changed group.', schema: groupResponse, example: { group: { ...exampleGroup, displayName: 'All staff', version: 2 } } },
  errors: ['invalid_request', 'forbidden', 'not_found', 'version_conflict'],
  async handle({ services, actor, params, body }) {
    return { group: presentGroup(await services.groups.changeGroup(actor, params.name, body)) };
  },
});

export const deleteGroup = defineOperation({
  operationId: 'deleteGroup',
  method: 'DELETE',
  path: '/admin/groups/:name',
  tag: adminTag,
  summary: 'Remove a group (administrators)',
  description: 'Removes the group and every membership in it; the people stay. The body carries `expectedVersion`. Administrators only; audited.',
  access: 'session',
  params: groupParams,
  body: removeGroupRequest,
  bodyExample: { expectedVersion: 1 },
  response: { status: 204, description: 'Removed.' },
  errors: ['invalid_request', 'forbidden', 'not_found', 'version_conflict'],
  async handle({ services, actor, params, body }) {
    await services.groups.removeGroup(actor, params.name, body.expectedVersion);
  },
});

export const listGroupMembers = defineOperation({
  operationId: 'listGroupMembers',
  method: 'GET',
  path: '/admin/groups/:name/members',
  tag: adminTag,
  summary: 'List a group\'s members (administrators)',
  description:
    'The members by account. `source` says who manages each membership: `local` (these operations) or `oidc:NAME` / `ldap:NAME`, the identity provider whose `groupMapping` sets it at each sign-in through it. Administrators only.',
  access: 'session',
  params: groupParams,
  response: {
    status: 200,
    description: 'The members.',
    schema: groupMemberListResponse,
    example: { members: [{ subjectId: 'usr_2kQ9mW2xR7tY5uP1', account: 'alice', displayName: 'Alice Example', source: 'local' }] },
  },
  errors: ['forbidden', 'not_found'],
  async handle({ services, actor, params }) {
    return { members: (await services.groups.listMembers(actor, params.name)).map(presentGroupMember) };
  },
});

export const addGroupMember = defineOperation({
  operationId: 'addGroupMember',
  method: 'PUT',
  path: '/admin/groups/:name/members/:subjectId',
  tag: adminTag,
  summary: 'Add a person to a group (administrators)',
  description:
    'Idempotent: a person already in the group stays in it once. A membership an identity provider manages becomes `local`, so later sign-ins through that provider no longer remove it. Administrators only; audited.',
  access: 'session',
  params: groupMemberParams,
  response: { status: 204, description: 'The person is a member.' },
  errors: ['forbidden', 'not_found'],
  async handle({ services, actor, params }) {
    await services.groups.putMember(actor, params.name, params.subjectId);
  },
});

export const removeGroupMember = defineOperation({
  operationId: 'removeGroupMember',
  method: 'DELETE',
  path: '/admin/groups/:name/members/:subjectId',
  tag: adminTag,
  summary: 'Remove a person from a group (administrators)',
  description:
    'Removes the membership whatever its source (idempotent). One an identity provider manages comes back at the person\'s next sign-in through that provider while its mapping still says so. Administrators only; audited.',
  access: 'session',
  params: groupMemberParams,
  response: { status: 204, description: 'The person is not a member.' },
  errors: ['forbidden', 'not_found'],
  async handle({ services, actor, params }) {
    await services.groups.removeMember(actor, params.name, params.subjectId);
  },
});

export const groupOperations = [listGroups, createGroup, updateGroup, deleteGroup, listGroupMembers, addGroupMember, removeGroupMember];

import { USER_PAGE } from '../../domain/limits.ts';
import { exampleTime, exampleUser } from '../contracts/examples.ts';
import { toIso } from '../contracts/common.ts';
import {
  createUserRequest,
  createUserResponse,
  lookupQuery,
  lookupResponse,
  presentAdminUser,
  presentUserSummary,
  setPasswordRequest,
  encodeUserCursor,
  subjectParams,
  updateUserRequest,
  userListQuery,
  userListResponse,
  userResponse,
} from '../contracts/users.ts';
import { defineOperation } from '../operation.ts';
import { said, see } from '../../domain/pointed-text.ts';

export const lookupUser = defineOperation({
  operationId: 'lookupUser',
  method: 'GET',
  path: '/users/lookup',
  tag: 'Users',
  summary: 'Find a user to add as a member',
  description:
    said`Exact, case-insensitive match on the account name; returns the \`subjectId\` that ${see('addMember')} needs. No partial matches, no listing. Limited per session and per address (by default 60 and 120 lookups per 15 minutes, found or not); over a limit it answers 429 \`rate_limited\` with Retry-After.`,
  access: 'session',
  query: lookupQuery,
  response: { status: 200, description: 'The user.', schema: lookupResponse, example: { user: { subjectId: exampleUser.subjectId, account: exampleUser.account, displayName: exampleUser.displayName } } },
  errors: ['invalid_request', 'not_found', 'rate_limited'],
  async handle({ services, actor, query, signedIn }) {
    return { user: presentUserSummary(await services.users.lookupUser(actor, query.account, { session: signedIn.token })) };
  },
});

const adminTag = 'Administration';

export const listUsers = defineOperation({
  operationId: 'listUsers',
  method: 'GET',
  path: '/admin/users',
  tag: adminTag,
  summary: 'List and search users (administrators)',
  description:
    'The accounts of the instance, newest first (by `createdAt`, ties by `subjectId`), a page at a time. ' +
    '`query` keeps the people whose account, display name or email contains it, case-insensitively. ' +
    'Page with `before` set to the `nextBefore` of the page you have (and the same `query`); `nextBefore` is null on the last page. Administrators only.',
  access: 'session',
  query: userListQuery,
  response: { status: 200, description: 'A page of users, newest first.', schema: userListResponse, example: { users: [exampleUser], nextBefore: null } },
  errors: ['invalid_request', 'forbidden'],
  async handle({ services, actor, query }) {
    const page = await services.users.searchUsers(actor, { query: query.query?.trim() || undefined, limit: query.limit ?? USER_PAGE.defaultLimit, before: query.before });
    const groups = await services.groups.groupNamesOfPeople(actor, page.users.map((user) => user.subjectId));
    return { users: page.users.map((user) => presentAdminUser(user, groups.get(user.subjectId) ?? [])), nextBefore: page.next ? encodeUserCursor(page.next) : null };
  },
});

export const createUser = defineOperation({
  operationId: 'createUser',
  method: 'POST',
  path: '/admin/users',
  tag: adminTag,
  summary: 'Create or invite a user (administrators)',
  description:
    'Creates an account that can sign in at once with the given password (stored as an argon2id hash and never shown again). ' +
    'With `invite: true` and no password, the person instead receives a single-use link by mail (valid 72 hours) to choose their password; ' +
    'the response carries `invitation.expiresAt`, never the link. Invitations need outgoing mail (SMTP_URL); without it they are refused with 400. ' +
    'Where Sesame sends no mail, leave out both `password` and `invite`: the answer then carries `setPasswordUrl`, a single-use link (valid 7 days, shown only this once) to the page where the person chooses their password, and `setPasswordExpiresAt`. ' +
    'The MCP tool takes no `password`: an assistant never chooses or handles a person\'s password. Administrators only.',
  access: 'session',
  body: createUserRequest,
  bodyExample: { account: 'bob', displayName: 'Bob Builder', email: 'bob@example.com', password: 'a long passphrase for bob' },
  response: { status: 201, description: 'The new user, and for an invitation when its link expires (or, without mail, the one-time set-password link).', schema: createUserResponse, example: { user: { ...exampleUser, groups: [] } } },
  errors: ['invalid_request', 'forbidden'],
  notToolArguments: ['password'],
  async handle({ services, actor, body }) {
    const { invite, password, emailVerified, ...profile } = body;
    if (invite === true) {
      const { user, invitation } = await services.users.inviteUser(actor, { ...profile, email: profile.email! });
      return { user: presentAdminUser(user, []), invitation: { expiresAt: toIso(invitation.expiresAt) } };
    }
    if (password === undefined) {
      const { user, setPasswordUrl, setPasswordExpiresAt } = await services.users.createUserWithSetPasswordLink(actor, { ...profile, emailVerified });
      return { user: presentAdminUser(user, []), setPasswordUrl, setPasswordExpiresAt: toIso(setPasswordExpiresAt) };
    }
    return { user: presentAdminUser(await services.users.createUser(actor, { ...profile, emailVerified, password }), []) };
  },
});

export const updateUser = defineOperation({
  operationId: 'updateUser',
  method: 'PATCH',
  path: '/admin/users/:subjectId',
  tag: adminTag,
  summary: 'Change a user (administrators)',
  description: 'Changes profile fields, the administrator flag, or disables (`status: "disabled"`, which ends at once every console and agent session and every OpenID Connect sign-in, grant, code, access token and refresh token of the user; re-enabling brings none back) or re-enables the account. Administrators only; you cannot disable yourself or drop your own administrator flag.',
  access: 'session',
  destructive: true,
  params: subjectParams,
  body: updateUserRequest,
  bodyExample: { status: 'disabled' },
  response: { status: 200, description: 'The changed user.', schema: userResponse, example: { user: { ...exampleUser, status: 'disabled', updatedAt: exampleTime } } },
  errors: ['invalid_request', 'forbidden', 'not_found'],
  async handle({ services, actor, params, body }) {
    const user = await services.users.updateUser(actor, params.subjectId, body);
    const groups = await services.groups.groupNamesOfPeople(actor, [user.subjectId]);
    return { user: presentAdminUser(user, groups.get(user.subjectId) ?? []) };
  },
});

export const setUserPassword = defineOperation({
  operationId: 'setUserPassword',
  method: 'POST',
  path: '/admin/users/:subjectId/password',
  tag: adminTag,
  summary: 'Set a user\'s password (administrators)',
  description:
    'Replaces the password and ends every session of the user at once: console and agent sessions, and every OpenID Connect sign-in, grant, code, access token and refresh token. Administrators only. ' +
    'Not for your own account (403 use_my_account: change yours under My account), and not open to an assistant: an OAuth access token gets 403 browser_only and MCP has no such tool; the console and a script\'s password-login Agent API session may.',
  access: 'session',
  onlyFrom: 'password-sessions',
  params: subjectParams,
  body: setPasswordRequest,
  bodyExample: { password: 'a new long passphrase' },
  response: { status: 204, description: 'The password is set; everything the user was signed in with is ended.' },
  errors: ['invalid_request', 'forbidden', 'not_found', 'use_my_account'],
  async handle({ services, actor, params, body }) {
    await services.users.setPassword(actor, params.subjectId, body.password);
  },
});

export const userOperations = [lookupUser, listUsers, createUser, updateUser, setUserPassword];

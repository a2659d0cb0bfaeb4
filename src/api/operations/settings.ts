import { presentSettings, settingsResponse, updateSettingsRequest } from '../contracts/account.ts';
import { subjectParams } from '../contracts/users.ts';
import { defineOperation } from '../operation.ts';

const tag = 'Administration';

export const getSettings = defineOperation({
  operationId: 'getSettings',
  method: 'GET',
  path: '/admin/settings',
  tag,
  summary: 'Read the sign-in policy (administrators)',
  description: 'Who must sign in with a second factor. Administrators only.',
  access: 'session',
  response: { status: 200, description: 'The settings.', schema: settingsResponse, example: { settings: { mfaRequired: 'admins', version: 2 } } },
  errors: ['forbidden'],
  async handle({ services, actor }) {
    return { settings: presentSettings(await services.settings.getSettings(actor)) };
  },
});

export const updateSettings = defineOperation({
  operationId: 'updateSettings',
  method: 'PATCH',
  path: '/admin/settings',
  tag,
  summary: 'Change the sign-in policy (administrators)',
  description: 'Sets who must sign in with a second factor: `none`, `admins` or `everyone`. Send the `version` you read as `expectedSettingsVersion`; a change made meanwhile answers 409 version_conflict. Administrators only; audited.',
  access: 'session',
  body: updateSettingsRequest,
  bodyExample: { mfaRequired: 'admins', expectedSettingsVersion: 1 },
  response: { status: 200, description: 'The changed settings.', schema: settingsResponse, example: { settings: { mfaRequired: 'admins', version: 2 } } },
  errors: ['invalid_request', 'forbidden', 'version_conflict'],
  async handle({ services, actor, body }) {
    return { settings: presentSettings(await services.settings.updateSettings(actor, body)) };
  },
});

export const resetUserFactors = defineOperation({
  operationId: 'resetUserFactors',
  method: 'POST',
  path: '/admin/users/:subjectId/factors/reset',
  tag,
  summary: 'Remove a person\'s second factors (administrators)',
  description:
    'For a person who lost their authenticator and recovery codes: removes every factor, so they sign in with the password alone and enrol again; every session of theirs ends. Administrators only; audited. ' +
    'Not for your own account (403 use_my_account: manage yours under My account), and not open to an assistant: an OAuth access token gets 403 browser_only and MCP has no such tool; the console and a script\'s password-login Agent API session may.',
  access: 'session',
  onlyFrom: 'password-sessions',
  destructive: true,
  params: subjectParams,
  response: { status: 204, description: 'The factors are removed and the person\'s sessions ended.' },
  errors: ['forbidden', 'not_found', 'use_my_account'],
  async handle({ services, actor, params }) {
    await services.factors.resetFactors(actor, params.subjectId);
  },
});

export const settingsOperations = [getSettings, updateSettings, resetUserFactors];

import { assistantGrantListResponse, assistantGrantParams, assistantGrantQuery, presentAssistantGrantPage } from '../contracts/assistant-grants.ts';
import { exampleLaterTime, exampleTime, exampleUser } from '../contracts/examples.ts';
import { ASSISTANT_GRANT_PAGE } from '../../domain/limits.ts';
import { defineOperation } from '../operation.ts';
import { said, see } from '../../domain/pointed-text.ts';

const tag = 'Administration';

export const listAssistantGrants = defineOperation({
  operationId: 'listAssistantGrants',
  method: 'GET',
  path: '/admin/assistant-grants',
  tag,
  summary: 'List every connected assistant (administrators)',
  description:
    said`Every assistant (a \`native\` client) a person has connected to their account, newest first: who, which assistant, what it may do, and when it was last used. Page with \`before\` set to the \`nextBefore\` of the page you have. Administrators only; a person sees their own under ${see('listMyConsents')}.`,
  access: 'session',
  query: assistantGrantQuery,
  response: {
    status: 200,
    description: 'Assistant grants, newest first.',
    schema: assistantGrantListResponse,
    example: {
      grants: [{ grantId: 'Zr4nW8kq1Yh3Lm6PbT0vXc', clientId: 'cli_9fK2mQ7xR4tL8vN1pZ3s', displayName: 'Claude Code', subjectId: exampleUser.subjectId, account: exampleUser.account, scopes: ['sesame:read', 'sesame:write'], grantedAt: exampleTime, lastUsedAt: exampleLaterTime }],
      nextBefore: null,
    },
  },
  errors: ['invalid_request', 'forbidden'],
  async handle({ services, actor, query }) {
    return presentAssistantGrantPage(await services.assistantGrants.listAssistantGrants(actor, { limit: query.limit ?? ASSISTANT_GRANT_PAGE.defaultLimit, before: query.before }));
  },
});

export const revokeAssistantGrant = defineOperation({
  operationId: 'revokeAssistantGrant',
  method: 'DELETE',
  path: '/admin/assistant-grants/:grantId',
  tag,
  summary: 'Disconnect a person\'s assistant (administrators)',
  description:
    said`Ends the grant at once: its access and refresh tokens stop working, and the person's consent for that assistant is forgotten, so connecting it again asks them again. The \`grantId\` comes from ${see('listAssistantGrants')}. Administrators only; audited.`,
  access: 'session',
  destructive: true,
  params: assistantGrantParams,
  response: { status: 204, description: 'Revoked.' },
  errors: ['forbidden', 'not_found'],
  async handle({ services, actor, params }) {
    await services.assistantGrants.revokeAssistantGrant(actor, params.grantId);
  },
});

export const assistantGrantOperations = [listAssistantGrants, revokeAssistantGrant];

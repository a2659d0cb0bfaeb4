import { auditLogListResponse, auditLogQuery, presentAuditLog } from '../contracts/audit.ts';
import { projectIdParams } from '../contracts/common.ts';
import { exampleAuditLog, exampleUser } from '../contracts/examples.ts';
import { defineOperation } from '../operation.ts';

const beforeOf = (before: string | undefined) => (before === undefined ? undefined : before.startsWith('aud_') ? { auditId: before } : { at: Date.parse(before) });

export const listAuditLogs = defineOperation({
  operationId: 'listAuditLogs',
  method: 'GET',
  path: '/projects/:projectId/audit-logs',
  tag: 'Audit',
  summary: 'Read a project\'s audit trail',
  description: 'Who changed what in the project, newest first; any member may read it. Page with `before` set to the `auditId` of the last entry you have; `action` and `actorSubjectId` narrow it to one action or one person.',
  access: 'session',
  params: projectIdParams,
  query: auditLogQuery,
  response: { status: 200, description: 'Audit entries, newest first.', schema: auditLogListResponse, example: { auditLogs: [exampleAuditLog] } },
  errors: ['invalid_request', 'not_found'],
  async handle({ services, actor, params, query }) {
    const entries = await services.audit.listAuditLogs(actor, params.projectId, {
      limit: query.limit,
      before: beforeOf(query.before),
      action: query.action,
      actorSubjectId: query.actorSubjectId,
    });
    return { auditLogs: entries.map(presentAuditLog) };
  },
});

export const listAdminAuditLogs = defineOperation({
  operationId: 'listAdminAuditLogs',
  method: 'GET',
  path: '/admin/audit-logs',
  tag: 'Administration',
  summary: 'Read the administrators\' audit trail',
  description:
    'Every change outside projects, newest first: people created, changed, disabled or given a password, sign-ins and sign-outs, settings, signing keys, deleted projects. ' +
    'Administrators only. Page with `before` set to the `auditId` of the last entry you have; `action` and `actorSubjectId` narrow it to one action or one person.',
  access: 'session',
  query: auditLogQuery,
  response: {
    status: 200,
    description: 'Audit entries, newest first.',
    schema: auditLogListResponse,
    example: { auditLogs: [{ ...exampleAuditLog, action: 'user.update', targetType: 'user', targetId: exampleUser.subjectId, before: { status: 'active' }, after: { status: 'disabled' } }] },
  },
  errors: ['invalid_request', 'forbidden'],
  async handle({ services, actor, query }) {
    const entries = await services.audit.listAdminAuditLogs(actor, { limit: query.limit, before: beforeOf(query.before), action: query.action, actorSubjectId: query.actorSubjectId });
    return { auditLogs: entries.map(presentAuditLog) };
  },
});

import { auditLogListResponse, auditLogQuery, presentAuditLog } from '../contracts/audit.ts';
import { projectIdParams } from '../contracts/common.ts';
import { exampleAuditLog } from '../contracts/examples.ts';
import { defineOperation } from '../operation.ts';

export const listAuditLogs = defineOperation({
  operationId: 'listAuditLogs',
  method: 'GET',
  path: '/projects/:projectId/audit-logs',
  tag: 'Audit',
  summary: 'Read a project\'s audit trail',
  description: 'Who changed what in the project, newest first; any member may read it. Page with `before` set to the `auditId` of the last entry you have.',
  access: 'session',
  params: projectIdParams,
  query: auditLogQuery,
  response: { status: 200, description: 'Audit entries, newest first.', schema: auditLogListResponse, example: { auditLogs: [exampleAuditLog] } },
  errors: ['invalid_request', 'not_found'],
  async handle({ services, actor, params, query }) {
    const entries = await services.audit.listAuditLogs(actor, params.projectId, {
      limit: query.limit,
      before: query.before === undefined ? undefined : query.before.startsWith('aud_') ? { auditId: query.before } : { at: Date.parse(query.before) },
    });
    return { auditLogs: entries.map(presentAuditLog) };
  },
});

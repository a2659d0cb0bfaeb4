import type { Actor } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import type { AuditLogRow } from '../storage/schema.ts';
import type { ServiceDeps } from './deps.ts';
import { resolveProjectAccess } from './project-access.ts';
import type { AuditLogEntry } from './types.ts';

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

export interface AuditLogQuery {
  limit?: number | undefined;
  /**
   * Where the page starts: an `auditId` continues exactly after that entry (entries written in the same
   * millisecond are neither skipped nor repeated); a time (epoch ms) takes entries strictly older than it.
   */
  before?: { auditId: string } | { at: number } | undefined;
}

const parseJson = (text: string | null): Record<string, unknown> | null => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

export function toAuditLogEntry(row: AuditLogRow & { actor_account: string | null }): AuditLogEntry {
  return {
    auditId: row.audit_id,
    at: row.at,
    actorSubjectId: row.actor_subject_id,
    actorAccount: row.actor_account,
    surface: row.surface,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: parseJson(row.before_json),
    after: parseJson(row.after_json),
    ip: row.ip,
    viaClientId: row.via_client_id,
  };
}

function checkQuery(query: AuditLogQuery): number {
  const fieldErrors: Record<string, string> = {};
  const limit = query.limit ?? AUDIT_PAGE.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE.maxLimit) fieldErrors.limit = `must be a whole number from 1 to ${AUDIT_PAGE.maxLimit}`;
  if (query.before && 'at' in query.before && !Number.isFinite(query.before.at)) fieldErrors.before = 'must be a point in time';
  if (Object.keys(fieldErrors).length > 0) throw new AppError('invalid_request', 'The audit log query is invalid.', { fieldErrors });
  return limit;
}

export function createAuditLogService({ db }: ServiceDeps) {
  return {
    /** A project's audit trail, newest first; every member (viewer included) and administrators may read it. */
    async listAuditLogs(actor: Actor, projectId: string, query: AuditLogQuery = {}): Promise<AuditLogEntry[]> {
      await resolveProjectAccess(db, actor, projectId);
      const limit = checkQuery(query);
      let select = db
        .selectFrom('audit_log')
        .leftJoin('users', 'users.subject_id', 'audit_log.actor_subject_id')
        .selectAll('audit_log')
        .select('users.account as actor_account')
        .where('audit_log.project_id', '=', projectId);
      const before = query.before;
      if (before && 'at' in before) select = select.where('audit_log.at', '<', before.at);
      if (before && 'auditId' in before) {
        const cursor = await db.selectFrom('audit_log').select(['at', 'audit_id']).where('audit_id', '=', before.auditId).where('project_id', '=', projectId).executeTakeFirst();
        if (!cursor) throw new AppError('invalid_request', 'The audit log query is invalid.', { fieldErrors: { before: 'no entry of this project has this auditId' } });
        select = select.where((eb) => eb.or([eb('audit_log.at', '<', cursor.at), eb.and([eb('audit_log.at', '=', cursor.at), eb('audit_log.audit_id', '<', cursor.audit_id)])]));
      }
      const rows = await select.orderBy('audit_log.at', 'desc').orderBy('audit_log.audit_id', 'desc').limit(limit).execute();
      return rows.map(toAuditLogEntry);
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;

import type { Actor } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import type { AuditLogRow } from '../storage/schema.ts';
import type { ServiceDeps } from './deps.ts';
import { resolveProjectAccess } from './project-access.ts';
import type { AuditLogEntry } from './types.ts';

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

export interface AuditLogQuery {
  limit?: number | undefined;
  /** Epoch ms: only entries strictly older than this (page on with the `at` of the last entry you have). */
  before?: number | undefined;
}

const parseJson = (text: string | null): Record<string, unknown> | null => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

export function toAuditLogEntry(row: AuditLogRow): AuditLogEntry {
  return {
    auditId: row.audit_id,
    at: row.at,
    actorSubjectId: row.actor_subject_id,
    surface: row.surface,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: parseJson(row.before_json),
    after: parseJson(row.after_json),
    ip: row.ip,
  };
}

function checkQuery(query: AuditLogQuery): { limit: number; before: number | undefined } {
  const fieldErrors: Record<string, string> = {};
  const limit = query.limit ?? AUDIT_PAGE.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE.maxLimit) fieldErrors.limit = `must be a whole number from 1 to ${AUDIT_PAGE.maxLimit}`;
  if (query.before !== undefined && !Number.isFinite(query.before)) fieldErrors.before = 'must be a point in time';
  if (Object.keys(fieldErrors).length > 0) throw new AppError('invalid_request', 'The audit log query is invalid.', { fieldErrors });
  return { limit, before: query.before };
}

export function createAuditLogService({ db }: ServiceDeps) {
  return {
    /** A project's audit trail, newest first; every member (viewer included) and administrators may read it. */
    async listAuditLogs(actor: Actor, projectId: string, query: AuditLogQuery = {}): Promise<AuditLogEntry[]> {
      await resolveProjectAccess(db, actor, projectId);
      const { limit, before } = checkQuery(query);
      let select = db.selectFrom('audit_log').selectAll().where('project_id', '=', projectId);
      if (before !== undefined) select = select.where('at', '<', before);
      const rows = await select.orderBy('at', 'desc').orderBy('audit_id', 'desc').limit(limit).execute();
      return rows.map(toAuditLogEntry);
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;

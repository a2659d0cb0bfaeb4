import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { AUDIT_PAGE } from '../../domain/limits.ts';
import { AppError } from '../../errors.ts';
import type { ServiceDeps } from './deps.ts';
import { resolveProjectAccess } from '../projects/project-access.ts';
import type { AuditLogEntry } from './types.ts';

export interface AuditLogQuery {
  limit?: number | undefined;
  /**
   * Where the page starts: an `auditId` continues exactly after that entry (entries written in the same
   * millisecond are neither skipped nor repeated); a time (epoch ms) takes entries strictly older than it.
   */
  before?: { auditId: string } | { at: number } | undefined;
  /** Only entries of this action (exact, e.g. `client.revise`). */
  action?: string | undefined;
  /** Only entries made by this person. */
  actorSubjectId?: string | undefined;
}

function checkQuery(query: AuditLogQuery): number {
  const fieldErrors: Record<string, string> = {};
  const limit = query.limit ?? AUDIT_PAGE.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE.maxLimit) fieldErrors.limit = `must be a whole number from 1 to ${AUDIT_PAGE.maxLimit}`;
  if (query.before && 'at' in query.before && !Number.isFinite(query.before.at)) fieldErrors.before = 'must be a point in time';
  if (Object.keys(fieldErrors).length > 0) throw new AppError('invalid_request', 'The audit log query is invalid; fix the query parameters named in field_errors.', { fieldErrors });
  return limit;
}

export function createAuditLogService({ store }: ServiceDeps) {
  /** One page of a trail: a project's, or (`null`) the one of changes outside projects. */
  async function page(projectId: string | null, query: AuditLogQuery): Promise<AuditLogEntry[]> {
    const limit = checkQuery(query);
    const auditLog = store.repos.auditLog;
    const before = query.before;
    const filters = { action: query.action, actorSubjectId: query.actorSubjectId };
    if (before && 'auditId' in before) {
      const position = await auditLog.positionInProject(projectId, before.auditId);
      const trail = projectId === null ? 'the administrators\' trail' : 'this project';
      if (!position) throw new AppError('invalid_request', 'The audit log query is invalid: `before` must be the `auditId` of an entry of this trail (the last one of the page you have).', { fieldErrors: { before: `no entry of ${trail} has this auditId` } });
      return auditLog.listForProject(projectId, { limit, before: { position }, ...filters });
    }
    return auditLog.listForProject(projectId, { limit, before, ...filters });
  }

  return {
    /** A project's audit trail, newest first; every member (viewer included) and administrators may read it. */
    async listAuditLogs(actor: Actor, projectId: string, query: AuditLogQuery = {}): Promise<AuditLogEntry[]> {
      const access = await resolveProjectAccess(store.repos, actor, projectId);
      const entries = await page(projectId, query);
      // Addresses are personal data: owners and administrators see them, viewers and maintainers do not.
      return actor.isAdmin || access.role === 'owner' ? entries : entries.map((entry) => ({ ...entry, ip: null }));
    },

    /**
     * The administrators' trail: every entry outside a project (people created, changed, disabled,
     * passwords set, sign-ins, settings, signing keys, deleted projects), newest first.
     */
    async listAdminAuditLogs(actor: Actor, query: AuditLogQuery = {}): Promise<AuditLogEntry[]> {
      if (!actor.isAdmin) throw new AppError('forbidden', said`Only administrators read the administrators' audit trail; a project's trail is ${see('listAuditLogs')}.`);
      return page(null, query);
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;

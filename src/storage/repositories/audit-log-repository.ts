import { newAuditId } from '../../domain/ids.ts';
import type { Surface } from '../../domain/actor.ts';
import type { AuditLogRow } from '../schema.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

export interface AuditRecord {
  at: number;
  actorSubjectId: string | null;
  surface: Surface;
  ip: string | null;
  action: string;
  targetType: string;
  targetId: string;
  projectId: string | null;
  /** The changed fields before and after; never a secret, digest or password hash. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The assistant whose token made the change; null otherwise. */
  viaClientId: string | null;
  /** That assistant's name now (its metadata document's name for one known only by it). */
  viaClientName?: string | null;
}

/** An entry as it is read back, with the actor's account name. */
export interface AuditLogEntry {
  auditId: string;
  at: number;
  actorSubjectId: string | null;
  /** The actor's account name as it is now; null for the system, the command line or a deleted user. */
  actorAccount: string | null;
  surface: Surface;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  /** The assistant (native client) whose token made the change; null otherwise. */
  viaClientId: string | null;
  /** The assistant's name when the entry was written (older entries: its registered name now); null without an assistant. */
  viaClientName: string | null;
}

/** Where a page of entries ends: an entry's position, so entries of one millisecond are neither skipped nor repeated. */
export interface AuditPosition {
  at: number;
  auditId: string;
}

export interface AuditPage {
  limit: number;
  /** Entries strictly older than this time (epoch ms), or strictly after this position in newest-first order. */
  before?: { at: number } | { position: AuditPosition } | undefined;
}

export interface AuditLogRepository {
  append(record: AuditRecord): Promise<void>;
  /** A project's entries, newest first (ties in time by auditId, descending); `null` lists the entries outside any project. */
  listForProject(projectId: string | null, page: AuditPage): Promise<AuditLogEntry[]>;
  /** Where the entry stands in its project's trail (`null`: outside projects); undefined when that trail has no entry with this id. */
  positionInProject(projectId: string | null, auditId: string): Promise<AuditPosition | undefined>;
}

const parseJson = (text: string | null): Record<string, unknown> | null => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

function toAuditLogEntry(row: AuditLogRow & { actor_account: string | null; via_client_display_name: string | null }): AuditLogEntry {
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
    viaClientName: row.via_client_id === null ? null : (row.via_client_name ?? row.via_client_display_name),
  };
}

export const auditLogRepository: RepositoryFactory<AuditLogRepository> = () => (executor: Executor) => ({
  async append(record) {
    await executor
      .insertInto('audit_log')
      .values({
        audit_id: newAuditId(),
        at: record.at,
        actor_subject_id: record.actorSubjectId,
        surface: record.surface,
        action: record.action,
        target_type: record.targetType,
        target_id: record.targetId,
        project_id: record.projectId,
        before_json: record.before ? JSON.stringify(record.before) : null,
        after_json: record.after ? JSON.stringify(record.after) : null,
        ip: record.ip,
        via_client_id: record.viaClientId,
        via_client_name: record.viaClientName ?? null,
      })
      .execute();
  },

  async listForProject(projectId, page) {
    if (projectId !== null && !isStorableText(projectId)) return [];
    let select = executor
      .selectFrom('audit_log')
      .leftJoin('users', 'users.subject_id', 'audit_log.actor_subject_id')
      .leftJoin('clients', 'clients.client_id', 'audit_log.via_client_id')
      .selectAll('audit_log')
      .select(['users.account as actor_account', 'clients.display_name as via_client_display_name'])
      .where('audit_log.project_id', projectId === null ? 'is' : '=', projectId);
    const before = page.before;
    if (before && 'at' in before) select = select.where('audit_log.at', '<', before.at);
    if (before && 'position' in before) {
      const { at, auditId } = before.position;
      select = select.where((eb) => eb.or([eb('audit_log.at', '<', at), eb.and([eb('audit_log.at', '=', at), eb('audit_log.audit_id', '<', auditId)])]));
    }
    const rows = await select.orderBy('audit_log.at', 'desc').orderBy('audit_log.audit_id', 'desc').limit(page.limit).execute();
    return rows.map(toAuditLogEntry);
  },

  async positionInProject(projectId, auditId) {
    if ((projectId !== null && !isStorableText(projectId)) || !isStorableText(auditId)) return undefined;
    const row = await executor
      .selectFrom('audit_log')
      .select(['at', 'audit_id'])
      .where('audit_id', '=', auditId)
      .where('project_id', projectId === null ? 'is' : '=', projectId)
      .executeTakeFirst();
    return row && { at: row.at, auditId: row.audit_id };
  },
});

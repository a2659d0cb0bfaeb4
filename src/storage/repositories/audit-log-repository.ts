import { sql } from 'kysely';
import { newAuditId } from '../../domain/ids.ts';
import type { Surface } from '../../domain/actor.ts';
import type { AuditLogEntry } from '../../domain/views.ts';
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
export type { AuditLogEntry };

/** Where a page of entries ends: an entry's position, so entries of one millisecond are neither skipped nor repeated. */
export interface AuditPosition {
  at: number;
  auditId: string;
}

export interface AuditPage {
  limit: number;
  /** Entries strictly older than this time (epoch ms), or strictly after this position in newest-first order. */
  before?: { at: number } | { position: AuditPosition } | undefined;
  /** Only entries of this action (exact). */
  action?: string | undefined;
  /** Only entries made by this person. */
  actorSubjectId?: string | undefined;
}

export interface AuditLogRepository {
  append(record: AuditRecord): Promise<void>;
  /** A project's entries, newest first (ties in time by auditId, descending); `null` lists the entries outside any project. */
  listForProject(projectId: string | null, page: AuditPage): Promise<AuditLogEntry[]>;
  /** Where the entry stands in its project's trail (`null`: outside projects); undefined when that trail has no entry with this id. */
  positionInProject(projectId: string | null, auditId: string): Promise<AuditPosition | undefined>;
}

const parseJson = (text: string | null): Record<string, unknown> | null => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

type AuditLogReadRow = AuditLogRow & {
  actor_account: string | null;
  actor_display_name: string | null;
  via_client_display_name: string | null;
  target_user_name: string | null;
  target_client_name: string | null;
  target_project_name: string | null;
};

function toAuditLogEntry(row: AuditLogReadRow): AuditLogEntry {
  return {
    auditId: row.audit_id,
    at: row.at,
    actorSubjectId: row.actor_subject_id,
    actorAccount: row.actor_account,
    actorDisplayName: row.actor_display_name,
    surface: row.surface,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    before: parseJson(row.before_json),
    after: parseJson(row.after_json),
    ip: row.ip,
    viaClientId: row.via_client_id,
    viaClientName: row.via_client_id === null ? null : (row.via_client_name ?? row.via_client_display_name),
    targetName: row.target_user_name ?? row.target_client_name ?? row.target_project_name,
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
      .leftJoin('users as target_user', (join) => join.onRef('target_user.subject_id', '=', 'audit_log.target_id').on('audit_log.target_type', 'in', ['user', 'member']))
      .leftJoin('clients as target_client', (join) => join.onRef('target_client.client_id', '=', 'audit_log.target_id').on('audit_log.target_type', '=', 'client'))
      .leftJoin('projects as target_project', (join) => join.onRef('target_project.project_id', '=', 'audit_log.target_id').on('audit_log.target_type', '=', 'project'))
      .selectAll('audit_log')
      .select([
        'users.account as actor_account',
        'users.display_name as actor_display_name',
        'clients.display_name as via_client_display_name',
        'target_user.display_name as target_user_name',
        'target_client.display_name as target_client_name',
        'target_project.name as target_project_name',
      ])
      .where('audit_log.project_id', projectId === null ? 'is' : '=', projectId);
    if (page.action !== undefined) select = isStorableText(page.action) ? select.where('audit_log.action', '=', page.action) : select.where(sql.lit(false));
    if (page.actorSubjectId !== undefined) select = isStorableText(page.actorSubjectId) ? select.where('audit_log.actor_subject_id', '=', page.actorSubjectId) : select.where(sql.lit(false));
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

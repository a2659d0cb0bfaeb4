import { newAuditId } from '../../domain/ids.ts';
import type { Surface } from '../../domain/actor.ts';
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
}

export interface AuditLogRepository {
  append(record: AuditRecord): Promise<void>;
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
      })
      .execute();
  },
});

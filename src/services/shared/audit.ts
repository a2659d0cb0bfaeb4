import type { Actor } from '../../domain/actor.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Repositories } from '../../storage/store.ts';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  projectId?: string | null;
  /** The changed fields before and after; never a secret, digest or password hash. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Written with the repositories of the transaction that makes the change it records. */
export async function writeAudit(repos: Repositories, clock: Clock, actor: Actor, entry: AuditEntry): Promise<void> {
  await repos.auditLog.append({
    at: clock.now(),
    actorSubjectId: actor.subjectId,
    surface: actor.surface,
    ip: actor.ip,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    projectId: entry.projectId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    viaClientId: actor.viaClientId ?? null,
    viaClientName: actor.viaClientName ?? null,
  });
}

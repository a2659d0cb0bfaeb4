import type { Actor } from '../domain/actor.ts';
import type { Clock } from '../domain/clock.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { auditLogRepository } from '../storage/repositories/audit-log-repository.ts';
import type { Repositories } from '../storage/store.ts';

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
export async function writeAudit(target: Repositories | Transaction<Database>, clock: Clock, actor: Actor, entry: AuditEntry): Promise<void> {
  // TRANSITIONAL (issue 11): services still holding a Kysely transaction pass it; remove once all use the store.
  const auditLog = 'auditLog' in target ? target.auditLog : auditLogRepository(target as never)(target);
  await auditLog.append({
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
  });
}

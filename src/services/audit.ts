import type { Transaction } from 'kysely';
import type { Actor } from '../domain/actor.ts';
import type { Clock } from '../domain/clock.ts';
import { newAuditId } from '../domain/ids.ts';
import type { Database } from '../storage/schema.ts';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  projectId?: string | null;
  /** The changed fields before and after; never a secret, digest or password hash. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Written inside the same transaction as the change it records. */
export async function writeAudit(trx: Transaction<Database>, clock: Clock, actor: Actor, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      audit_id: newAuditId(),
      at: clock.now(),
      actor_subject_id: actor.subjectId,
      surface: actor.surface,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      project_id: entry.projectId ?? null,
      before_json: entry.before ? JSON.stringify(entry.before) : null,
      after_json: entry.after ? JSON.stringify(entry.after) : null,
      ip: actor.ip,
    })
    .execute();
}

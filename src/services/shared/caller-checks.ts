import { said, type PointedText } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { SIGN_IN_FIRST } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';

/** Instance-wide operations are for administrators; `refusal` says which ones, in the caller's terms. */
export function requireAdmin(actor: Actor, refusal: string | PointedText): void {
  if (!actor.isAdmin) throw new AppError('forbidden', refusal);
}

/** The person an own-account operation acts on: the CLI and the system have none. */
export function ownSubjectId(actor: Actor): string {
  if (!actor.subjectId) throw new AppError('login_required', said`These operations act on your own account. ${SIGN_IN_FIRST}`);
  return actor.subjectId;
}

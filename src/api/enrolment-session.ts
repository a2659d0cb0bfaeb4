import { said, see } from '../domain/pointed-text.ts';
import { AppError } from '../errors.ts';
import type { AnyOperation, SignedIn } from './operation.ts';

/** What a session opened for a person who must enrol a second factor may do, on every surface (DESIGN 13). */
const ALWAYS_ALLOWED = new Set(['whoAmI', 'logout', 'listMyFactors']);
/**
 * And in the console, where enrolment happens: add an authenticator app or a passkey, and prove it is you again
 * when the sign-in is longer ago than REAUTH_WINDOW_SECONDS (adding a factor needs a recent proof, DESIGN 14).
 */
const CONSOLE_ENROLMENT = new Set(['startTotp', 'confirmTotp', 'passkeyOptions', 'addPasskey', 'reauthenticate']);

export const ENROL_IN_THE_CONSOLE = said`The second-factor policy requires your account to have a second factor, and it has none yet. Sign in to the console and add an authenticator app or a passkey under My account (Second factor), then sign in again with its code. Until then this session may only read who you are (${see('whoAmI')}) and your factors (${see('listMyFactors')}), and log out.`;

/**
 * Refuses, with 403 mfa_enrolment_required, every operation an enrolment-only session may not run. Called by
 * the operation pipeline for each signed-in request, so no operation can forget it.
 */
export function refuseDuringEnrolment(operation: Pick<AnyOperation, 'operationId'>, signedIn: SignedIn | null, surface: 'agent' | 'console'): void {
  if (signedIn?.enrolmentRequired && !mayRunDuringEnrolment(operation, surface)) throw new AppError('mfa_enrolment_required', ENROL_IN_THE_CONSOLE);
}

/** Whether an enrolment-only session may run this operation on this surface (the documents list the refusal for the others). */
export function mayRunDuringEnrolment(operation: Pick<AnyOperation, 'operationId'>, surface: 'agent' | 'console'): boolean {
  return ALWAYS_ALLOWED.has(operation.operationId) || (surface === 'console' && CONSOLE_ENROLMENT.has(operation.operationId));
}

import type { Actor } from '../domain/actor.ts';
import { said, see, type PointedText } from '../domain/pointed-text.ts';
import { AppError } from '../errors.ts';
import type { AnyOperation } from './operation.ts';

const MY_ACCOUNT = 'in the console under My account';

/** Said in both documents of every person-only operation (`onlyFrom: 'console'`). */
export const PERSON_ONLY_NOTE = said` Person-only (it changes how you sign in): only in the console, in your own browser session, proven within REAUTH_WINDOW_SECONDS (default 10 minutes) by your sign-in or by ${see('reauthenticate')}, else 403 reauthentication_required. On the Agent API (a password-login token or an assistant's OAuth token) it answers 403 browser_only, and MCP has no such tool: an assistant tells the person to do it in the console under My account.`;

/** An operation's description with the person-only note after it. */
export const withPersonOnlyNote = (description: string | PointedText): PointedText => said`${description}${PERSON_ONLY_NOTE}`;

/**
 * Refuses, before anything is parsed, read or written, an operation its definition keeps to other
 * callers (`onlyFrom`, DESIGN.md section 14). Both API surfaces and the MCP server call this one
 * function; the use case checks the same again, so no other door gets around it.
 */
export function refuseOffItsSurface(operation: Pick<AnyOperation, 'onlyFrom' | 'operationId' | 'summary'>, actor: Actor): void {
  if (operation.onlyFrom === 'console' && actor.surface !== 'console') {
    throw new AppError(
      'browser_only',
      `${operation.operationId} (${operation.summary.toLowerCase()}) changes how the person signs in: only the person can do this, ${MY_ACCOUNT}, signed in in their own browser. ` +
        'Neither an assistant nor an Agent API token may; tell the person where to do it instead. Reading stays open here: GET /account/factors, GET /account/email, GET /account/sessions.',
    );
  }
  if (operation.onlyFrom === 'password-sessions' && actor.viaClientId) {
    throw new AppError(
      'browser_only',
      `${operation.operationId} (${operation.summary.toLowerCase()}) is not open to an assistant's access token: an administrator does it in the console (Administration, Users), ` +
        'or a script signed in with POST /api/agent/auth/login.',
    );
  }
}

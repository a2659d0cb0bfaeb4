import type { Actor } from '../../domain/actor.ts';
import { REAUTH_WINDOW_DEFAULT_SECONDS } from '../../config.ts';
import { said, see } from '../../domain/pointed-text.ts';
import { AppError } from '../../errors.ts';
import { ownSubjectId } from '../shared/caller-checks.ts';
import type { ServiceDeps } from '../shared/deps.ts';

/**
 * The person-only operations (DESIGN.md section 14: password, second factors, recovery codes, email,
 * unlinking an identity) are the person's alone, in their browser, freshly proven. Each of those use
 * cases asks here first, so no door (Agent API token, assistant, a future surface) gets around it.
 */
export function createPersonOnlyCheck({ clock, reauthWindowSeconds }: Pick<ServiceDeps, 'clock' | 'reauthWindowSeconds'>) {
  const windowMs = (reauthWindowSeconds ?? REAUTH_WINDOW_DEFAULT_SECONDS) * 1000;

  /** A console session whose proof of the person is older than the window (or unknown) must prove it again. */
  const isStale = (actor: Actor) => actor.provenAt === undefined || clock.now() - actor.provenAt > windowMs;

  return {
    /**
     * The caller's own subjectId, when the caller is the person in a console session that proved them
     * within REAUTH_WINDOW_SECONDS; `proofInRequest`: the request itself carries a checked proof (the
     * current password removing a factor). An OIDC sign-in's own enrolment step (surface `system`) has
     * just proved the person.
     */
    requirePerson(actor: Actor, what: string, options: { proofInRequest?: boolean } = {}): string {
      const subjectId = ownSubjectId(actor);
      if (actor.surface === 'agent' || actor.surface === 'mcp') {
        throw new AppError('browser_only', said`${what}: only the person can do this, in the console under My account, signed in in their own browser. Neither an assistant nor an Agent API token may; reading stays open: ${see('listMyFactors')}, ${see('getMyEmail')}.`);
      }
      if (actor.surface === 'console' && !options.proofInRequest && isStale(actor)) {
        throw new AppError(
          'reauthentication_required',
          said`${what} needs a recent proof that you are you: send ${see('reauthenticate')} with your currentPassword (or an otp: a code from your authenticator app or a recovery code), then try again (or sign in again).`,
        );
      }
      return subjectId;
    },

    /**
     * An administrator acting on another person's credentials: never through an assistant's OAuth token,
     * never on their own account (that is My account, with its own proofs).
     */
    requireAdminOnOther(actor: Actor, subjectId: string, what: string): void {
      if (actor.viaClientId) {
        throw new AppError('browser_only', said`${what} is not open to an assistant's access token: an administrator does it in the console (Administration, Users), or a script signed in with the Agent API's ${see('login')}.`);
      }
      if (actor.subjectId !== null && actor.subjectId === subjectId) {
        throw new AppError('use_my_account', said`${what} is for other people's accounts. For your own, use the console under My account (${see('changePassword')}, ${see('removeFactor')}), where your current password or a code proves it is you.`);
      }
    },
  };
}

export type PersonOnlyCheck = ReturnType<typeof createPersonOnlyCheck>;

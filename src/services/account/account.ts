import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { ownSubjectId } from '../shared/caller-checks.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { passwordProblem } from '../../domain/passwords.ts';
import { AppError } from '../../errors.ts';
import type { SignInSurface } from '../../ops/metrics.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import type { AccountConsent, AccountSession, AccountSessionKind } from '../../domain/views.ts';
import { hashPassword } from '../sign-in/passwords.ts';
import { createPersonOnlyCheck } from './person-only.ts';
import { queueSecurityNotice } from './security-notices.ts';
import type { UserService } from '../people/users.ts';

export type { AccountConsent, AccountSession, AccountSessionKind };

// OIDC sessions are named by oidc-provider's session uid, never by the cookie (the session's id).
const OIDC_SESSION_PREFIX = 'oidc_';

/** The caller's own account; `currentToken` is the password session's token (null for an assistant's OAuth token). */
export interface AccountCaller {
  actor: Actor;
  currentToken: string | null;
}

/** The signed-in person's own account: password, sessions, and the applications they allowed. */
export function createAccountService(deps: ServiceDeps, { users }: { users: UserService }) {
  const { store, clock, mail } = deps;
  const personOnly = createPersonOnlyCheck(deps);

  const signInSurface = (actor: Actor): SignInSurface => (actor.surface === 'console' ? 'management' : 'agent');

  /** 401 invalid_credentials when the password is not the caller's; counted toward the sign-in limits like a failed login. */
  async function requirePassword(actor: Actor, password: string): Promise<string> {
    const subjectId = ownSubjectId(actor);
    if (!(await users.confirmPassword(subjectId, password, { ip: actor.ip, surface: signInSurface(actor) }))) {
      throw new AppError('invalid_credentials', 'The current password is wrong. Check it and try again.', { fieldErrors: { currentPassword: 'is wrong' } });
    }
    return subjectId;
  }

  return {
    requirePassword,

    /** Replaces the password; every other session of the person ends (console, agent, OIDC sessions, grants and tokens). */
    async changePassword({ actor, currentToken }: AccountCaller, input: { currentPassword: string; newPassword: string }): Promise<void> {
      // The current password alone is not enough: an unattended open console must not change it.
      personOnly.requirePerson(actor, 'Changing your password');
      const problem = passwordProblem(input.newPassword);
      if (problem) throw new AppError('invalid_request', `The new password ${problem}.`, { fieldErrors: { newPassword: problem } });
      const subjectId = await requirePassword(actor, input.currentPassword);
      const passwordHash = await hashPassword(input.newPassword);
      await store.transaction(async (repos) => {
        const now = clock.now();
        await repos.users.setPasswordHash(subjectId, passwordHash, now);
        const endedSessions = currentToken === null ? await repos.sessions.revokeAllOf(subjectId, now) : await repos.sessions.revokeAllOfExcept(subjectId, sha256Hex(currentToken), now);
        // Made from a console or agent session: no OIDC artifact is the one making the change, so all go.
        const endedOidcArtifacts = await repos.oidcPayloads.revokeAllForAccount(subjectId);
        await writeAudit(repos, clock, actor, { action: 'account.password_change', targetType: 'user', targetId: subjectId, after: { endedSessions, endedOidcArtifacts } });
        const person = await repos.users.findBySubjectId(subjectId);
        if (person) await queueSecurityNotice(repos, clock, mail, person, 'password_changed');
      });
    },

    /**
     * Proves the person again in the console session making the request (its `currentToken`), with the
     * current password or a one-time code (TOTP or an unused recovery code): the person-only operations
     * then work for REAUTH_WINDOW_SECONDS. A wrong proof is 401 invalid_credentials, counted toward the
     * sign-in limits like a failed login.
     */
    async reauthenticate({ actor, currentToken }: AccountCaller, proof: { currentPassword?: string | undefined; otp?: string | undefined }): Promise<void> {
      const subjectId = personOnly.requirePerson(actor, 'Re-authenticating', { proofInRequest: true });
      if (actor.surface !== 'console' || currentToken === null) throw new AppError('browser_only', 'Only a console session proves the person again; sign in to the console.');
      if (proof.currentPassword !== undefined) {
        await requirePassword(actor, proof.currentPassword);
      } else if (proof.otp === undefined || !(await users.signInSecondStep(subjectId, proof.otp, { ip: actor.ip, surface: signInSurface(actor) }, 'pwd'))) {
        throw new AppError('invalid_credentials', 'The one-time code is wrong or was used already. Send the current code of your authenticator app, or an unused recovery code, in `otp`; repeated failures are refused for a while.', {
          fieldErrors: { otp: 'is wrong or was used already' },
        });
      }
      await store.transaction(async (repos) => {
        const now = clock.now();
        if (!(await repos.sessions.markProven(sha256Hex(currentToken), now))) throw new AppError('login_required', 'This console session has ended; sign in again.');
        await writeAudit(repos, clock, actor, { action: 'session.reauthenticate', targetType: 'user', targetId: subjectId, after: { method: proof.currentPassword !== undefined ? 'password' : 'otp' } });
      });
    },

    async listSessions({ actor, currentToken }: AccountCaller): Promise<AccountSession[]> {
      const subjectId = ownSubjectId(actor);
      const now = clock.now();
      const management = await store.repos.sessions.listLiveOf(subjectId, now, currentToken === null ? null : sha256Hex(currentToken));
      const oidc = await store.repos.oidcPayloads.listSessionsOf(subjectId, now);
      const seconds = (value: unknown) => (typeof value === 'number' ? value * 1000 : null);
      return [
        ...management.map((session) => ({ sessionId: session.sessionId, kind: session.kind, createdAt: session.createdAt, lastSeenAt: session.lastSeenAt, current: session.current })),
        ...oidc.map(({ uid, payload }) => {
          const createdAt = seconds(payload.loginTs) ?? seconds(payload.iat) ?? now;
          return { sessionId: `${OIDC_SESSION_PREFIX}${uid}`, kind: 'oidc' as const, createdAt, lastSeenAt: seconds(payload.iat) ?? createdAt, current: false };
        }),
      ];
    },

    /** Ends one of the caller's sessions; 404 when the caller has no live session with this id. */
    async endSession({ actor }: AccountCaller, sessionId: string): Promise<void> {
      const subjectId = ownSubjectId(actor);
      await store.transaction(async (repos) => {
        const ended = sessionId.startsWith(OIDC_SESSION_PREFIX)
          ? await repos.oidcPayloads.destroySessionOf(subjectId, sessionId.slice(OIDC_SESSION_PREFIX.length))
          : await repos.sessions.revokeById(subjectId, sessionId, clock.now());
        if (!ended) throw new AppError('not_found', said`You have no live session ${sessionId}. List them with ${see('listMySessions')}.`);
        await writeAudit(repos, clock, actor, { action: 'account.session_end', targetType: 'user', targetId: subjectId, after: { sessionId } });
      });
    },

    /** The applications the caller allowed to sign them in (assistants are the native ones). */
    async listConsents({ actor }: AccountCaller): Promise<AccountConsent[]> {
      const subjectId = ownSubjectId(actor);
      const grants = await store.repos.oidcPayloads.listGrantsOf(subjectId, clock.now());
      const consents: AccountConsent[] = [];
      for (const { grantId, payload, lastIssuedAt, clientName } of grants) {
        const clientId = typeof payload.clientId === 'string' ? payload.clientId : '';
        const client = clientId ? (await store.repos.clients.findForProtocol(clientId))?.client : undefined;
        consents.push({
          grantId,
          clientId,
          // An assistant known by its metadata document has no registration: its grant keeps the document's name.
          clientType: client?.clientType ?? (clientName !== null ? 'native' : null),
          displayName: client?.displayName ?? clientName,
          scopes: grantScopes(payload),
          grantedAt: typeof payload.iat === 'number' ? payload.iat * 1000 : null,
          lastUsedAt: lastIssuedAt,
        });
      }
      return consents.sort((a, b) => (b.grantedAt ?? 0) - (a.grantedAt ?? 0));
    },

    /** Ends the grant and its tokens, and forgets the consent: the application's next sign-in asks again. */
    async revokeConsent({ actor }: AccountCaller, grantId: string): Promise<void> {
      const subjectId = ownSubjectId(actor);
      await store.transaction(async (repos) => {
        const revoked = await repos.oidcPayloads.revokeGrantOfAccount(subjectId, grantId);
        if (!revoked) throw new AppError('not_found', said`You have no consent ${grantId}. List them with ${see('listMyConsents')}.`);
        if (revoked.clientId) await repos.rememberedConsents.forget(subjectId, revoked.clientId);
        await writeAudit(repos, clock, actor, { action: 'account.consent_revoke', targetType: 'user', targetId: subjectId, after: { grantId, clientId: revoked.clientId } });
      });
    },
  };
}

/** The OpenID scopes and the resource scopes (an assistant's sesame:*) a grant holds. */
export function grantScopes(payload: Record<string, unknown>): string[] {
  const scopes = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string') for (const scope of value.split(' ')) if (scope) scopes.add(scope);
  };
  add((payload.openid as { scope?: unknown } | undefined)?.scope);
  const resources = payload.resources;
  if (resources && typeof resources === 'object') for (const value of Object.values(resources)) add(value);
  return [...scopes];
}

export type AccountService = ReturnType<typeof createAccountService>;

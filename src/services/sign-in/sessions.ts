import { said, see, type PointedText } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { newSecretValue, newSessionId } from '../../domain/ids.ts';
import { SESSION_LIFETIME_SECONDS } from '../../domain/limits.ts';
import type { SessionKind } from '../../domain/statuses.ts';
import { AppError } from '../../errors.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import type { PasskeyService } from './passkeys.ts';
import { heldConsoleSignIn, useHeldConsoleSignIn } from '../upstream/oidc-upstream-sign-in.ts';
import type { SignInDecision, SignInDecisionService } from './sign-in-decision.ts';
import { MFA_REQUIRED_DESCRIPTION, type SignIn, type User, type UserService } from '../people/users.ts';

export type { SessionKind };

// last_seen_at is informational; writing it on every request would turn each read into a write.
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionInfo {
  kind: SessionKind;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
  /** When the session last proved the person: its sign-in, or a later re-authentication. */
  provenAt: number;
  /** Opened for a person who must enrol a second factor first: it may only enrol (DESIGN 13). */
  enrolmentRequired: boolean;
}

export interface LoginResult {
  /** The bearer token or cookie value; it exists in clear only in this result, the database keeps its digest. */
  token: string;
  expiresIn: number;
  user: User;
  /** The person must enrol a second factor (the policy requires one and they have none): the session may only enrol. */
  enrolmentRequired: boolean;
}

const surfaceOf = (kind: SessionKind) => (kind === 'console' ? 'console' : 'agent');

/** Console cookies and Agent API bearer tokens: random tokens stored as SHA-256 digests in one table. */
export function createSessionService(deps: ServiceDeps, { users, passkeys, decisions }: { users: UserService; passkeys: PasskeyService; decisions: SignInDecisionService }) {
  const { store, clock } = deps;

  /**
   * Opens the session the sign-in decision allows: a full one when it is done, one that may only enrol when
   * the person must enrol first. A second factor still owed never reaches here (the callers answer mfa_required).
   */
  async function startSession({ user, decision }: SignIn, kind: SessionKind, ip: string | null, method: 'password' | 'passkey' | 'upstream'): Promise<LoginResult> {
    if (decision.outcome === 'second_factor') throw new Error('a session was started for a sign-in that owes its second factor');
    const enrolmentRequired = decision.outcome === 'enrol';
    const token = newSecretValue();
    const now = clock.now();
    const actor: Actor = { subjectId: user.subjectId, isAdmin: user.isAdmin, surface: surfaceOf(kind), ip };
    await store.transaction(async (repos) => {
      await repos.sessions.insert(sha256Hex(token), {
        sessionId: newSessionId(),
        subjectId: user.subjectId,
        kind,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + SESSION_LIFETIME_SECONDS * 1000,
        revokedAt: null,
        provenAt: now,
        enrolmentRequired,
      });
      const after = { kind, ...(method === 'password' ? {} : { method }), ...(enrolmentRequired ? { enrolmentRequired } : {}) };
      await writeAudit(repos, clock, actor, { action: 'session.login', targetType: 'user', targetId: user.subjectId, after });
    });
    return { token, expiresIn: SESSION_LIFETIME_SECONDS, user, enrolmentRequired };
  }

  const secondFactorOwed = (decision: SignInDecision, retry: string | PointedText) =>
    decision.outcome === 'second_factor' ? new AppError('mfa_required', retry) : null;

  return {
    /**
     * A sign-in at the OpenID Connect login pages (to an application), for the administrators' trail as
     * `session.login` with `kind: "oidc"`: the session itself is oidc-provider's, made when the browser resumes.
     */
    async recordPageSignIn(subjectId: string, sign: { ip: string | null; method: 'password' | 'passkey' | 'upstream'; clientId: string | null; secondFactor: boolean }): Promise<void> {
      const actor: Actor = { subjectId, isAdmin: false, surface: 'system', ip: sign.ip };
      await store.transaction(async (repos) => {
        await writeAudit(repos, clock, actor, {
          action: 'session.login',
          targetType: 'user',
          targetId: subjectId,
          after: { kind: 'oidc', method: sign.method, secondFactor: sign.secondFactor, clientId: sign.clientId },
        });
      });
    },

    /** Password sign-in to the console or the Agent API, under the sign-in failure limits (429 rate_limited). */
    async login(account: string, password: string, options: { kind: SessionKind; ip: string | null; deviceSubject?: string | null; otp?: string | undefined }): Promise<LoginResult> {
      const surface = options.kind === 'agent' ? 'agent' : 'management';
      const signIn = await users.signInWithPassword(account, password, { ip: options.ip, surface, deviceSubject: options.deviceSubject }, options.otp);
      // One answer whatever was wrong: unknown account, wrong password or disabled account.
      if (!signIn) throw new AppError('invalid_credentials', said`The account, password or one-time code is wrong, or the account is disabled. Check \`account\`, \`password\` and, if sent, \`otp\` with the person before sending ${see('login')} again; repeated failures are refused for a while.`);
      const owed = secondFactorOwed(signIn.decision, MFA_REQUIRED_DESCRIPTION);
      if (owed) throw owed;
      return startSession(signIn, options.kind, options.ip, 'password');
    },

    /**
     * Console sign-in with a passkey alone: an assertion answering the options made for this browser's
     * login-CSRF nonce (`ceremony`), from a passkey that verified the person (PIN, biometrics). Failures
     * count toward the sign-in limits like wrong passwords.
     */
    async loginWithPasskey(ceremony: string, response: unknown, options: { kind: 'console'; ip: string | null }): Promise<LoginResult> {
      const signedIn = await passkeys.signIn(ceremony, response, { ip: options.ip, surface: 'management' });
      if (!signedIn?.userVerified) {
        throw new AppError('invalid_credentials', 'The passkey did not sign you in: it is not registered here, was removed, or did not verify you (PIN or biometrics). Sign in with your account and password instead.');
      }
      return startSession({ user: signedIn.user, decision: await decisions.decide(signedIn.user, { first: 'hwk' }) }, options.kind, options.ip, 'passkey');
    },

    /**
     * Finishes a console sign-in an upstream provider confirmed for this browser (`browser`, from its login-CSRF
     * nonce): a person with a second factor also needs `otp`, as at every door (401 mfa_required without it;
     * a wrong one is 401 invalid_credentials, counted toward the sign-in limits). Used once.
     */
    async loginAfterUpstream(browser: string, options: { kind: 'console'; ip: string | null; otp?: string | undefined }): Promise<LoginResult> {
      const nothingWaiting = new AppError(
        'invalid_credentials',
        'No sign-in through a provider is waiting for this browser: it took longer than 5 minutes, was finished already, or started in another browser. Choose "Continue with" on the sign-in page again.',
      );
      const held = await heldConsoleSignIn(store.repos, browser, clock.now());
      const user = held ? await users.getUser(held.subjectId) : null;
      if (!held || !user || user.status !== 'active') throw nothingWaiting;
      let signIn: SignIn | null = { user, decision: await decisions.decide(user, { first: 'fed' }) };
      if (signIn.decision.outcome === 'second_factor') {
        if (options.otp === undefined) {
          throw secondFactorOwed(signIn.decision, said`This account has a second factor: send ${see('upstreamFinish')} again with, in \`otp\`, the 6-digit code from the authenticator app or an unused recovery code.`)!;
        }
        signIn = await users.signInSecondStep(user.subjectId, options.otp, { ip: options.ip, surface: 'management' }, 'fed');
        if (!signIn) throw new AppError('invalid_credentials', 'The one-time code is wrong or was used already. Send the current code of the authenticator app, or an unused recovery code, in `otp`; repeated failures are refused for a while.');
      }
      if (!(await useHeldConsoleSignIn(store.repos, browser, clock.now()))) throw nothingWaiting;
      return startSession(signIn, options.kind, options.ip, 'upstream');
    },

    /** The signed-in user behind a token of this kind, or null when it is unknown, expired, revoked or its user is disabled. */
    async authenticate(token: string, kind: SessionKind): Promise<{ user: User; session: SessionInfo } | null> {
      if (token.length === 0 || token.length > 256) return null;
      // Looked up by digest: timing of the index search reveals nothing about a valid token.
      const digest = sha256Hex(token);
      const found = await store.repos.sessions.findWithUser(digest);
      const now = clock.now();
      if (!found) return null;
      const { session, user } = found;
      if (session.kind !== kind || session.revokedAt !== null || session.expiresAt <= now || user.status !== 'active') return null;
      if (now - session.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) await store.repos.sessions.touch(digest, now);
      return { user, session: { kind: session.kind, createdAt: session.createdAt, expiresAt: session.expiresAt, lastSeenAt: now, provenAt: session.provenAt, enrolmentRequired: session.enrolmentRequired === true } };
    },

    /** Ends the session at once; an unknown or already ended token is not an error. */
    async logout(token: string, options: { ip: string | null } = { ip: null }): Promise<void> {
      await store.transaction(async (repos) => {
        const ended = await repos.sessions.revoke(sha256Hex(token), clock.now());
        if (!ended) return;
        const actor: Actor = { subjectId: ended.subjectId, isAdmin: false, surface: surfaceOf(ended.kind), ip: options.ip };
        await writeAudit(repos, clock, actor, { action: 'session.logout', targetType: 'user', targetId: ended.subjectId, after: { kind: ended.kind } });
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

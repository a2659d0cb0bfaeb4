import { said, see } from '../../domain/pointed-text.ts';
import type { User } from '../../domain/accounts.ts';
import type { Actor } from '../../domain/actor.ts';
import type { StudentStatus } from '../../domain/clients.ts';
import { ACCOUNT_LINK_PATHS, SET_PASSWORD_LINK_LIFETIME_MS } from '../../domain/account-links.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { newSecretValue, newSubjectId } from '../../domain/ids.ts';
import { SIGN_IN_FIRST } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';
import type { SignInSurface } from '../../ops/metrics.ts';
import type { Repositories } from '../../storage/store.ts';
import type { UserPosition } from '../../storage/repositories/user-repository.ts';
import { writeAudit } from '../shared/audit.ts';
import { endEverySessionOf } from '../sign-in/end-sessions.ts';
import { createSecondFactor } from '../sign-in/second-factor.ts';
import type { DirectorySignIn } from '../upstream/ldap-directory-sign-in.ts';
import type { SignInDecision, SignInDecisionService } from '../sign-in/sign-in-decision.ts';
import type { FirstProof } from '../../domain/sign-in-decision.ts';
import type { SignInAttempt } from '../../rate-limit/sign-in-limiter.ts';
import { hashPassword, NO_PASSWORD_HASH, verifyPassword } from '../sign-in/passwords.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { issueAccountLink, requireMail } from '../shared/mail/account-links.ts';
import { requireAdmin } from '../shared/caller-checks.ts';
import { createPersonOnlyCheck } from '../account/person-only.ts';
import { queueSecurityNotice } from '../account/security-notices.ts';

export type { User, UserPosition };

/** Where a password sign-in comes from: the sign-in limits count failures per account, address and both. */
export interface SignInSource {
  ip: string | null;
  surface: SignInSurface;
  /** The person a valid device cookie of this browser names (src/security/device-cookie.ts), if any. */
  deviceSubject?: string | null | undefined;
  /** The OIDC application asked for `acr_values=mfa`: a person with no factor enrols (the sign-in decision). */
  clientWantsMfa?: boolean | undefined;
}

/** A sign-in whose first proof passed, and what it still owes (src/domain/sign-in-decision.ts). */
export interface SignIn {
  user: User;
  decision: SignInDecision;
}

/** Carries a sign-in that owes its second factor out of the limiter's attempt: a right password, so no failure. */
class SecondFactorOwed extends Error {
  readonly signIn: SignIn;
  constructor(signIn: SignIn) {
    super('second factor owed');
    this.signIn = signIn;
  }
}

export interface NewUser {
  account: string;
  displayName: string;
  email?: string | undefined;
  emailVerified?: boolean | undefined;
  studentStatus?: StudentStatus | undefined;
  isAdmin?: boolean | undefined;
  password: string;
}

/** An invited person has an address and no password: the invitation mail's link lets them set one. */
export type InvitedUser = Omit<NewUser, 'password' | 'emailVerified'> & { email: string };

export interface UserChanges {
  displayName?: string | undefined;
  email?: string | null | undefined;
  emailVerified?: boolean | undefined;
  studentStatus?: StudentStatus | undefined;
  status?: 'active' | 'disabled' | undefined;
  isAdmin?: boolean | undefined;
}

/** The audited view of a user: what changed, never the password hash. */
const auditedFields = (user: User) => ({
  account: user.account,
  displayName: user.displayName,
  email: user.email,
  emailVerified: user.emailVerified,
  studentStatus: user.studentStatus,
  isAdmin: user.isAdmin,
  status: user.status,
});

/**
 * A verified address belongs to one account: an administrator cannot mark an address verified for a
 * second person (400, field `email`); they may set it unverified, or free it on the other account first.
 */
async function requireAddressFree(repos: Repositories, email: string | null, emailVerified: boolean, subjectId: string): Promise<void> {
  if (!email || !emailVerified) return;
  const holders = await repos.users.listByVerifiedEmail(email);
  if (!holders.some((holder) => holder.subjectId !== subjectId)) return;
  throw new AppError('invalid_request', `${email} is already the verified address of another account; a verified address belongs to one account. Set it unverified (emailVerified: false), or change the other account's address first.`, {
    fieldErrors: { email: 'is already the verified address of another account' },
  });
}

const requireUserAdmin = (actor: Actor) => requireAdmin(actor, 'Only administrators manage people\'s accounts; ask an administrator to make this change.');


export const MFA_REQUIRED_DESCRIPTION =
  said`This account has a second factor: send ${see('login')} again with the account and password and, in \`otp\`, the 6-digit code from the authenticator app or an unused recovery code.`;

export function createUserService(deps: ServiceDeps, { directories, decisions }: { directories: DirectorySignIn; decisions: SignInDecisionService }) {
  const personOnly = createPersonOnlyCheck(deps);
  const { store, clock, signInLimiter, lookupLimiter, mail } = deps;
  const { users } = store.repos;
  const secondFactor = createSecondFactor(deps);

  async function requireUser(subjectId: string): Promise<User> {
    const user = await users.findBySubjectId(subjectId);
    if (!user) throw new AppError('not_found', said`No user with subjectId ${subjectId}; list the users with ${see('listUsers')} and take their \`subjectId\`.`);
    return user;
  }

  /**
   * The user when the account exists, is active and the password matches; otherwise null, at the same
   * cost. An account Sesame does not know, one with no local password, or a person linked to an enabled
   * LDAP directory is checked by the enabled directories instead (which may create or refresh the person;
   * 503 directory_unavailable when one does not answer).
   */
  async function verifyCredentials(account: string, password: string, from: SignInAttempt): Promise<User | null> {
    const found = await users.findCredentialsByAccount(account);
    const hasLocalPassword = found !== undefined && found.passwordHash !== NO_PASSWORD_HASH;
    if (hasLocalPassword && (await directories.checksPasswordOf(found.user.subjectId))) return directories.check(account, password, from);
    // With no local password this checks a dummy hash, so it costs what a wrong password costs.
    const matches = await verifyPassword(found?.passwordHash, password);
    if (!hasLocalPassword) return directories.check(account, password, from);
    if (!matches || found.user.status !== 'active') return null;
    return found.user;
  }

  /** A one-time code (TOTP or recovery code) of a person past their first proof, under the account's cap of wrong codes. */
  async function checkOneTimeCode(user: User, otp: string, first: FirstProof, surface: SignInSource['surface']): Promise<SignIn | null> {
    const accepted = await signInLimiter.oneTimeCode({ subjectId: user.subjectId, surface }, async () => ((await secondFactor.verify(user.subjectId, otp)) ? user : null));
    return accepted ? { user: accepted, decision: await decisions.decide(accepted, { first, second: 'otp' }) } : null;
  }

  const signInAttemptOf = (account: string, from: SignInSource): SignInAttempt => {
    const { deviceSubject } = from;
    const fromKnownDevice = deviceSubject ? async () => (await users.findByAccount(account))?.subjectId === deviceSubject : undefined;
    return { account, ip: from.ip, surface: from.surface, fromKnownDevice };
  };

  /** Inserts the user and audits it, with whatever `alsoDo` adds in the same transaction. */
  async function insertUser(
    actor: Actor,
    input: Omit<NewUser, 'password'>,
    passwordHash: string,
    alsoDo: (repos: Repositories, user: User) => Promise<Record<string, unknown>>,
  ): Promise<User> {
    const now = clock.now();
    const user: User = {
      subjectId: newSubjectId(),
      account: input.account,
      displayName: input.displayName.trim(),
      email: input.email ?? null,
      emailVerified: input.emailVerified ?? false,
      studentStatus: input.studentStatus ?? 'unknown',
      locale: null,
      isAdmin: input.isAdmin ?? false,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
    return store.transaction(async (repos) => {
      await requireAddressFree(repos, user.email, user.emailVerified, user.subjectId);
      if (!(await repos.users.insert(user, passwordHash))) {
        throw new AppError('invalid_request', said`The account ${input.account} already exists: choose another \`account\`, or find that person with ${see('lookupUser')} (\`account\` ${input.account}).`, { fieldErrors: { account: 'already taken' } });
      }
      const extra = await alsoDo(repos, user);
      await writeAudit(repos, clock, actor, { action: 'user.create', targetType: 'user', targetId: user.subjectId, after: { ...auditedFields(user), ...extra } });
      return user;
    });
  }

  const service = {
    async createUser(actor: Actor, input: NewUser): Promise<User> {
      requireUserAdmin(actor);
      const passwordHash = await hashPassword(input.password);
      return insertUser(actor, input, passwordHash, async () => ({}));
    },

    /** Creates a person with no password and mails them a 72-hour link to set one; needs outgoing mail. */
    async inviteUser(actor: Actor, input: InvitedUser): Promise<{ user: User; invitation: { expiresAt: number } }> {
      requireUserAdmin(actor);
      requireMail(mail, 'invite', 'send the invitation; leave out `invite` (and `password`) to get a one-time set-password link to hand to the person instead');
      let expiresAt = 0;
      const user = await insertUser(actor, { ...input, emailVerified: false }, NO_PASSWORD_HASH, async (repos, created) => {
        // The invited person has saved no language yet: the mail speaks the inviting administrator's.
        const inviter = actor.subjectId ? await repos.users.findBySubjectId(actor.subjectId) : undefined;
        const link = await issueAccountLink(repos, clock, { purpose: 'invitation', user: created, email: input.email, queueMail: true, fallbackLocale: inviter?.locale });
        expiresAt = link.expiresAt;
        return { invitationExpiresAt: new Date(link.expiresAt).toISOString() };
      });
      return { user, invitation: { expiresAt } };
    },

    /**
     * Creates a person with no password where Sesame sends no mail: the answer carries, this once, a
     * one-time link (7 days, stored as a digest) to the invitation page where the person chooses their
     * password, so nobody else ever handles it. Where mail works, an invitation (`invite: true`) mails
     * that link instead, and this is refused.
     */
    async createUserWithSetPasswordLink(actor: Actor, input: Omit<NewUser, 'password'>): Promise<{ user: User; setPasswordUrl: string; setPasswordExpiresAt: number }> {
      requireUserAdmin(actor);
      if (mail?.enabled) {
        throw new AppError('invalid_request', 'Give the person a `password`, or send `invite: true` (with `email`) so Sesame mails them a link to choose one.', {
          fieldErrors: { password: 'is required (or send invite: true to mail the person a link to choose it)' },
        });
      }
      if (!deps.issuer) throw new AppError('invalid_request', 'This server has no issuer address to build the set-password link from; give the person a `password`.', { fieldErrors: { password: 'is required here' } });
      const issuer = deps.issuer;
      let link: { setPasswordUrl: string; setPasswordExpiresAt: number } | undefined;
      const user = await insertUser(actor, input, NO_PASSWORD_HASH, async (repos, created) => {
        // No address is proven by this link (it is handed on, not mailed): an empty link address never verifies one.
        const issued = await issueAccountLink(repos, clock, { purpose: 'invitation', user: created, email: '', queueMail: false, lifetimeMs: SET_PASSWORD_LINK_LIFETIME_MS });
        const token = newSecretValue();
        await repos.accountLinks.setTokenDigest(issued.linkId, sha256Hex(token));
        link = { setPasswordUrl: `${issuer}${ACCOUNT_LINK_PATHS.invitation}${token}`, setPasswordExpiresAt: issued.expiresAt };
        return { setPasswordLinkExpiresAt: new Date(issued.expiresAt).toISOString() };
      });
      return { user, ...link! };
    },

    /**
     * The password sign-in of every door, under the sign-in failure limits: null when the account is unknown
     * or disabled or the password is wrong (counted as a failure); otherwise the person and what the sign-in
     * decision says they still owe. Throws 429 rate_limited, without checking the password, once the address
     * or the account from this address has failed too often; an account that failed too often from anywhere
     * is only slowed down, and not at all from an address or a browser (device cookie) its person signed in
     * from before.
     *
     * A person with a second factor owes it: with `otp` (a TOTP code or an unused recovery code, the
     * management logins' field) it is checked here, and a wrong one is null, counted like a wrong password;
     * without it the answer is `second_factor`, which is not a failure.
     */
    async signInWithPassword(account: string, password: string, from: SignInSource, otp?: string): Promise<SignIn | null> {
      try {
        return await signInLimiter.attempt(signInAttemptOf(account, from), async () => {
          const user = await verifyCredentials(account, password, signInAttemptOf(account, from));
          if (!user) return null;
          const decision = await decisions.decide(user, { first: 'pwd' }, { clientWantsMfa: from.clientWantsMfa });
          if (decision.outcome !== 'second_factor') return { user, decision };
          if (otp === undefined) throw new SecondFactorOwed({ user, decision });
          return checkOneTimeCode(user, otp, decision.first, from.surface);
        });
      } catch (error) {
        if (error instanceof SecondFactorOwed) return error.signIn;
        throw error;
      }
    },

    /**
     * `signInWithPassword` for callers that want the person only (the command line, tests): null for wrong
     * credentials, 401 mfa_required when a second factor is owed and no `otp` came.
     */
    async authenticate(account: string, password: string, from: SignInSource, otp?: string): Promise<User | null> {
      const signIn = await service.signInWithPassword(account, password, from, otp);
      if (signIn?.decision.outcome === 'second_factor') throw new AppError('mfa_required', MFA_REQUIRED_DESCRIPTION);
      return signIn?.user ?? null;
    },

    /**
     * The second step of a sign-in whose first proof (`first`) passed: the person and the decision when
     * `otp` is a current TOTP code or an unused recovery code of theirs, otherwise null, counted as a failure.
     * Past the account's cap of wrong codes, 429 rate_limited whatever the code.
     */
    async signInSecondStep(subjectId: string, otp: string, from: SignInSource, first: FirstProof): Promise<SignIn | null> {
      const user = await users.findBySubjectId(subjectId);
      if (!user) return null;
      return signInLimiter.oneTimeCode({ subjectId, surface: from.surface }, () =>
        signInLimiter.attempt({ account: user.account, ip: from.ip, surface: from.surface }, async () => {
          const current = await users.findBySubjectId(subjectId);
          if (!current || current.status !== 'active') return null;
          if (!(await secondFactor.verify(subjectId, otp))) return null;
          return { user: current, decision: await decisions.decide(current, { first, second: 'otp' }) };
        }),
      );
    },

    /** Re-checks a signed-in person's password before a sensitive change, under the same sign-in limits. */
    async confirmPassword(subjectId: string, password: string, from: SignInSource): Promise<boolean> {
      const user = await users.findBySubjectId(subjectId);
      if (!user) return false;
      const confirmed = await signInLimiter.attempt(signInAttemptOf(user.account, from), () => verifyCredentials(user.account, password, signInAttemptOf(user.account, from)));
      return confirmed?.subjectId === subjectId;
    },

    async getUser(subjectId: string): Promise<User | null> {
      return (await users.findBySubjectId(subjectId)) ?? null;
    },

    /** Account names come from forms, URLs and the command line; one no user can have is simply not found. */
    async findByAccount(account: string): Promise<User | null> {
      return (await users.findByAccount(account)) ?? null;
    },

    /**
     * Exact account lookup for adding members; any signed-in user may look up an active account, a limited
     * number of times per session and per address (429 rate_limited), so account names cannot be enumerated.
     * `session` is the caller's session token (only its digest is counted); null counts per address only.
     */
    async lookupUser(actor: Actor, account: string, from: { session: string | null } = { session: null }): Promise<User> {
      if (!actor.subjectId && !actor.isAdmin) throw new AppError('login_required', SIGN_IN_FIRST);
      await lookupLimiter.admit({ session: from.session, ip: actor.ip });
      const user = await users.findByAccount(account);
      if (!user || user.status !== 'active') throw new AppError('not_found', `No active user has the account ${account}; \`account\` must be the exact account name (ask the person for it), and a disabled account is not found.`);
      return user;
    },

    async listUsers(actor: Actor): Promise<User[]> {
      requireUserAdmin(actor);
      return users.list();
    },

    /**
     * One page of people for administrators, newest first; `query` keeps those whose account, display name or
     * email contains it (case-insensitive). `next` is where the following page starts, null on the last page.
     */
    async searchUsers(actor: Actor, page: { query?: string | undefined; limit: number; before?: UserPosition | undefined }): Promise<{ users: User[]; next: UserPosition | null }> {
      requireUserAdmin(actor);
      // One more than asked says whether another page follows.
      const found = await users.search({ query: page.query, limit: page.limit + 1, before: page.before });
      const shown = found.slice(0, page.limit);
      const last = shown.at(-1);
      return { users: shown, next: found.length > page.limit && last ? { createdAt: last.createdAt, subjectId: last.subjectId } : null };
    },

    async countUsers(): Promise<number> {
      return users.count();
    },

    async updateUser(actor: Actor, subjectId: string, changes: UserChanges): Promise<User> {
      requireUserAdmin(actor);
      if (actor.subjectId === subjectId && (changes.isAdmin === false || changes.status === 'disabled')) {
        throw new AppError('invalid_request', 'You cannot withdraw your own admin rights or disable yourself; ask another administrator.');
      }
      return store.transaction(async (repos) => {
        const before = await repos.users.findBySubjectId(subjectId);
        if (!before) throw new AppError('not_found', said`No user with subjectId ${subjectId}; list the users with ${see('listUsers')} and take their \`subjectId\`.`);
        const now = clock.now();
        const profile = {
          ...(changes.displayName !== undefined ? { displayName: changes.displayName.trim() } : {}),
          ...(changes.email !== undefined ? { email: changes.email } : {}),
          // A new address is unverified unless the administrator says otherwise in the same change (audited).
          ...(changes.emailVerified !== undefined ? { emailVerified: changes.emailVerified } : changes.email !== undefined && changes.email !== before.email ? { emailVerified: false } : {}),
          ...(changes.studentStatus !== undefined ? { studentStatus: changes.studentStatus } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.isAdmin !== undefined ? { isAdmin: changes.isAdmin } : {}),
        };
        await requireAddressFree(repos, profile.email !== undefined ? profile.email : before.email, profile.emailVerified ?? before.emailVerified, subjectId);
        await repos.users.update(subjectId, profile, now);
        // The administrator's address wins over one the person asked for and has not confirmed yet.
        if (changes.email !== undefined && changes.email !== before.email) await repos.accountLinks.revokeLive(subjectId, 'email_verification', now);
        // A disabled account keeps nothing alive: no console or agent session, and no OIDC session, grant,
        // code or token, so re-enabling it later brings none of them back.
        if (changes.status === 'disabled') await endEverySessionOf(repos, subjectId, now);
        const after: User = { ...before, ...profile, updatedAt: now };
        await writeAudit(repos, clock, actor, { action: 'user.update', targetType: 'user', targetId: subjectId, before: auditedFields(before), after: auditedFields(after) });
        return after;
      });
    },

    async setPassword(actor: Actor, subjectId: string, password: string): Promise<void> {
      requireUserAdmin(actor);
      personOnly.requireAdminOnOther(actor, subjectId, 'Setting a person\'s password');
      const user = await requireUser(subjectId);
      const passwordHash = await hashPassword(password);
      await store.transaction(async (repos) => {
        const now = clock.now();
        await repos.users.setPasswordHash(subjectId, passwordHash, now);
        await endEverySessionOf(repos, subjectId, now);
        await writeAudit(repos, clock, actor, { action: 'user.password_reset', targetType: 'user', targetId: subjectId });
        await queueSecurityNotice(repos, clock, mail, user, 'password_changed');
      });
    },
  };
  return service;
}

export type UserService = ReturnType<typeof createUserService>;

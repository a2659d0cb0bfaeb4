import type { User } from '../domain/accounts.ts';
import type { Actor } from '../domain/actor.ts';
import { STUDENT_STATUSES, type StudentStatus } from '../domain/clients.ts';
import { newSubjectId } from '../domain/ids.ts';
import { passwordProblem } from '../domain/passwords.ts';
import { isStorableText } from '../domain/text-rules.ts';
import { AppError } from '../errors.ts';
import type { SignInSurface } from '../ops/metrics.ts';
import { writeAudit } from './audit.ts';
import { createSecondFactor } from './second-factor.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { ServiceDeps } from './deps.ts';

export type { User };

/** Where a password sign-in comes from: the sign-in limits count failures per account, address and both. */
export interface SignInSource {
  ip: string | null;
  surface: SignInSurface;
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

export interface UserChanges {
  displayName?: string | undefined;
  email?: string | null | undefined;
  emailVerified?: boolean | undefined;
  studentStatus?: StudentStatus | undefined;
  status?: 'active' | 'disabled' | undefined;
  isAdmin?: boolean | undefined;
}

const ACCOUNT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

function requireAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new AppError('forbidden', 'Only administrators manage users.');
}

function checkProfile(input: { account?: string; displayName?: string | undefined; email?: string | null | undefined; studentStatus?: string | undefined }): void {
  const fieldErrors: Record<string, string> = {};
  if (input.account !== undefined && !ACCOUNT_PATTERN.test(input.account)) {
    fieldErrors.account = 'must be 1-128 characters: letters, digits and . _ @ + -, starting with a letter or digit';
  }
  if (input.displayName !== undefined && (input.displayName.trim() === '' || input.displayName.length > 200)) {
    fieldErrors.displayName = 'must be 1-200 characters';
  }
  if (input.email != null && (!EMAIL_PATTERN.test(input.email) || input.email.length > 320)) fieldErrors.email = 'must be an email address';
  if (input.studentStatus !== undefined && !(STUDENT_STATUSES as readonly string[]).includes(input.studentStatus)) {
    fieldErrors.studentStatus = `must be one of ${STUDENT_STATUSES.join(', ')}`;
  }
  if (Object.keys(fieldErrors).length > 0) throw new AppError('invalid_request', 'Some user fields are invalid.', { fieldErrors });
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new AppError('invalid_request', `The password ${problem}.`, { fieldErrors: { password: problem } });
}

export const MFA_REQUIRED_DESCRIPTION =
  'This account has a second factor: send the 6-digit code from your authenticator app, or an unused recovery code, in `otp` together with the account and password.';

export function createUserService(deps: ServiceDeps) {
  const { store, clock, signInLimiter } = deps;
  const { users } = store.repos;
  const secondFactor = createSecondFactor(deps);

  async function requireUser(subjectId: string): Promise<User> {
    const user = await users.findBySubjectId(subjectId);
    if (!user) throw new AppError('not_found', `No user with subjectId ${subjectId}.`);
    return user;
  }

  /** The user when the account exists, is active and the password matches; otherwise null, at the same cost. */
  async function verifyCredentials(account: string, password: string): Promise<User | null> {
    const found = await users.findCredentialsByAccount(account);
    const matches = await verifyPassword(found?.passwordHash, password);
    if (!found || !matches || found.user.status !== 'active') return null;
    return found.user;
  }

  return {
    async createUser(actor: Actor, input: NewUser): Promise<User> {
      requireAdmin(actor);
      checkProfile(input);
      checkPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const now = clock.now();
      const user: User = {
        subjectId: newSubjectId(),
        account: input.account,
        displayName: input.displayName.trim(),
        email: input.email ?? null,
        emailVerified: input.emailVerified ?? false,
        studentStatus: input.studentStatus ?? 'unknown',
        isAdmin: input.isAdmin ?? false,
        status: 'active',
        createdAt: now,
        updatedAt: now,
      };
      return store.transaction(async (repos) => {
        if (!(await repos.users.insert(user, passwordHash))) {
          throw new AppError('invalid_request', `The account ${input.account} already exists.`, { fieldErrors: { account: 'already taken' } });
        }
        await writeAudit(repos, clock, actor, { action: 'user.create', targetType: 'user', targetId: user.subjectId, after: auditedFields(user) });
        return user;
      });
    },

    /**
     * The password check of every sign-in, under the sign-in failure limits: the user when the account
     * exists, is active and the password matches, otherwise null. Throws 429 rate_limited, without
     * checking the password, once the account, the address or both have failed too often.
     *
     * A person with a second factor also needs `otp` (a TOTP code or an unused recovery code): without
     * it, 401 mfa_required, which is not a failure; a wrong one is null, counted like a wrong password.
     */
    async authenticate(account: string, password: string, from: SignInSource, otp?: string): Promise<User | null> {
      return signInLimiter.attempt({ account, ip: from.ip, surface: from.surface }, async () => {
        const user = await verifyCredentials(account, password);
        if (!user || !(await secondFactor.enrolled(user.subjectId))) return user;
        if (otp === undefined) throw new AppError('mfa_required', MFA_REQUIRED_DESCRIPTION);
        return (await secondFactor.verify(user.subjectId, otp)) ? user : null;
      });
    },

    /**
     * The second step of a sign-in whose password was right (the login page's code page): the user when
     * `otp` is a current TOTP code or an unused recovery code of theirs, otherwise null, counted as a failure.
     */
    async authenticateSecondStep(subjectId: string, otp: string, from: SignInSource): Promise<User | null> {
      const user = await users.findBySubjectId(subjectId);
      if (!user) return null;
      return signInLimiter.attempt({ account: user.account, ip: from.ip, surface: from.surface }, async () => {
        const current = await users.findBySubjectId(subjectId);
        if (!current || current.status !== 'active') return null;
        return (await secondFactor.verify(subjectId, otp)) ? current : null;
      });
    },

    /** Re-checks a signed-in person's password before a sensitive change, under the same sign-in limits. */
    async confirmPassword(subjectId: string, password: string, from: SignInSource): Promise<boolean> {
      const user = await users.findBySubjectId(subjectId);
      if (!user) return false;
      const confirmed = await signInLimiter.attempt({ account: user.account, ip: from.ip, surface: from.surface }, () => verifyCredentials(user.account, password));
      return confirmed !== null;
    },

    async getUser(subjectId: string): Promise<User | null> {
      return (await users.findBySubjectId(subjectId)) ?? null;
    },

    /** Account names come from forms, URLs and the command line; one no user can have is simply not found. */
    async findByAccount(account: string): Promise<User | null> {
      return (await users.findByAccount(account)) ?? null;
    },

    /** Exact account lookup for adding members; any signed-in user may look up an active account. */
    async lookupUser(actor: Actor, account: string): Promise<User> {
      if (!actor.subjectId && !actor.isAdmin) throw new AppError('login_required', 'Sign in first.');
      const user = await users.findByAccount(account);
      if (!user || user.status !== 'active') throw new AppError('not_found', `No active user has the account ${account}.`);
      return user;
    },

    async listUsers(actor: Actor): Promise<User[]> {
      requireAdmin(actor);
      return users.list();
    },

    async countUsers(): Promise<number> {
      return users.count();
    },

    async updateUser(actor: Actor, subjectId: string, changes: UserChanges): Promise<User> {
      requireAdmin(actor);
      checkProfile(changes);
      if (actor.subjectId === subjectId && (changes.isAdmin === false || changes.status === 'disabled')) {
        throw new AppError('invalid_request', 'You cannot withdraw your own admin rights or disable yourself; ask another administrator.');
      }
      return store.transaction(async (repos) => {
        const before = await repos.users.findBySubjectId(subjectId);
        if (!before) throw new AppError('not_found', `No user with subjectId ${subjectId}.`);
        const now = clock.now();
        const profile = {
          ...(changes.displayName !== undefined ? { displayName: changes.displayName.trim() } : {}),
          ...(changes.email !== undefined ? { email: changes.email } : {}),
          ...(changes.emailVerified !== undefined ? { emailVerified: changes.emailVerified } : {}),
          ...(changes.studentStatus !== undefined ? { studentStatus: changes.studentStatus } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.isAdmin !== undefined ? { isAdmin: changes.isAdmin } : {}),
        };
        await repos.users.update(subjectId, profile, now);
        // A disabled account keeps no live console or agent session.
        if (changes.status === 'disabled') {
          await repos.sessions.revokeAllOf(subjectId, now);
          await repos.oidcPayloads.revokeAllForAccount(subjectId);
        }
        const after: User = { ...before, ...profile, updatedAt: now };
        await writeAudit(repos, clock, actor, { action: 'user.update', targetType: 'user', targetId: subjectId, before: auditedFields(before), after: auditedFields(after) });
        return after;
      });
    },

    async setPassword(actor: Actor, subjectId: string, password: string): Promise<void> {
      requireAdmin(actor);
      checkPassword(password);
      await requireUser(subjectId);
      const passwordHash = await hashPassword(password);
      await store.transaction(async (repos) => {
        const now = clock.now();
        await repos.users.setPasswordHash(subjectId, passwordHash, now);
        await repos.sessions.revokeAllOf(subjectId, now);
        await repos.oidcPayloads.revokeAllForAccount(subjectId);
        await writeAudit(repos, clock, actor, { action: 'user.password_reset', targetType: 'user', targetId: subjectId });
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;

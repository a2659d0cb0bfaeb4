import type { Actor } from '../domain/actor.ts';
import { STUDENT_STATUSES, type StudentStatus } from '../domain/clients.ts';
import { newSubjectId } from '../domain/ids.ts';
import { passwordProblem } from '../domain/passwords.ts';
import { isStorableText } from '../domain/text-rules.ts';
import { AppError } from '../errors.ts';
import type { UserRow } from '../storage/schema.ts';
import { precompile } from '../storage/precompiled-query.ts';
import { writeAudit } from './audit.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { ServiceDeps } from './deps.ts';

export interface User {
  subjectId: string;
  account: string;
  displayName: string;
  email: string | null;
  emailVerified: boolean;
  studentStatus: StudentStatus;
  isAdmin: boolean;
  status: 'active' | 'disabled';
  createdAt: number;
  updatedAt: number;
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

export const normalizeAccount = (account: string) => account.normalize('NFKC').toLowerCase();

export function toUser(row: UserRow): User {
  return {
    subjectId: row.subject_id,
    account: row.account,
    displayName: row.display_name,
    email: row.email,
    emailVerified: row.email_verified === 1,
    studentStatus: row.student_status,
    isAdmin: row.is_admin === 1,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
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

export function createUserService({ db, clock }: ServiceDeps) {
  // Every token, userinfo and sign-in request looks its user up: compiled once (precompiled-query.ts).
  const rowBySubjectId = precompile(['subjectId'], (value) => db.selectFrom('users').selectAll().where('subject_id', '=', value('subjectId')));
  const rowByAccount = precompile(['account'], (value) => db.selectFrom('users').selectAll().where('account_normalized', '=', value('account')));

  async function getRow(subjectId: string): Promise<UserRow | undefined> {
    return (await db.executeQuery(rowBySubjectId({ subjectId }))).rows[0];
  }

  /** Account names come from forms, URLs and the command line; one no user can have is simply not found. */
  async function findRowByAccount(account: string): Promise<UserRow | undefined> {
    if (!isStorableText(account)) return undefined;
    return (await db.executeQuery(rowByAccount({ account: normalizeAccount(account) }))).rows[0];
  }

  async function requireUser(subjectId: string): Promise<User> {
    const row = await getRow(subjectId);
    if (!row) throw new AppError('not_found', `No user with subjectId ${subjectId}.`);
    return toUser(row);
  }

  return {
    async createUser(actor: Actor, input: NewUser): Promise<User> {
      requireAdmin(actor);
      checkProfile(input);
      checkPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const now = clock.now();
      const row: UserRow = {
        subject_id: newSubjectId(),
        account: input.account,
        account_normalized: normalizeAccount(input.account),
        password_hash: passwordHash,
        display_name: input.displayName.trim(),
        email: input.email ?? null,
        email_verified: input.emailVerified ? 1 : 0,
        student_status: input.studentStatus ?? 'unknown',
        is_admin: input.isAdmin ? 1 : 0,
        status: 'active',
        created_at: now,
        updated_at: now,
      };
      return db.transaction().execute(async (trx) => {
        const taken = await trx.selectFrom('users').select('subject_id').where('account_normalized', '=', row.account_normalized).executeTakeFirst();
        if (taken) throw new AppError('invalid_request', `The account ${input.account} already exists.`, { fieldErrors: { account: 'already taken' } });
        await trx.insertInto('users').values(row).execute();
        const user = toUser(row);
        await writeAudit(trx, clock, actor, { action: 'user.create', targetType: 'user', targetId: user.subjectId, after: auditedFields(user) });
        return user;
      });
    },

    /** The user when the account exists, is active and the password matches; otherwise null, at the same cost. */
    async authenticate(account: string, password: string): Promise<User | null> {
      const row = await findRowByAccount(account);
      const matches = await verifyPassword(row?.password_hash, password);
      if (!row || !matches || row.status !== 'active') return null;
      return toUser(row);
    },

    async getUser(subjectId: string): Promise<User | null> {
      const row = await getRow(subjectId);
      return row ? toUser(row) : null;
    },

    async findByAccount(account: string): Promise<User | null> {
      const row = await findRowByAccount(account);
      return row ? toUser(row) : null;
    },

    /** Exact account lookup for adding members; any signed-in user may look up an active account. */
    async lookupUser(actor: Actor, account: string): Promise<User> {
      if (!actor.subjectId && !actor.isAdmin) throw new AppError('login_required', 'Sign in first.');
      const row = await findRowByAccount(account);
      if (!row || row.status !== 'active') throw new AppError('not_found', `No active user has the account ${account}.`);
      return toUser(row);
    },

    async listUsers(actor: Actor): Promise<User[]> {
      requireAdmin(actor);
      const rows = await db.selectFrom('users').selectAll().orderBy('account_normalized').execute();
      return rows.map(toUser);
    },

    async countUsers(): Promise<number> {
      const { count } = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      return Number(count);
    },

    async updateUser(actor: Actor, subjectId: string, changes: UserChanges): Promise<User> {
      requireAdmin(actor);
      checkProfile(changes);
      if (actor.subjectId === subjectId && (changes.isAdmin === false || changes.status === 'disabled')) {
        throw new AppError('invalid_request', 'You cannot withdraw your own admin rights or disable yourself; ask another administrator.');
      }
      return db.transaction().execute(async (trx) => {
        const beforeRow = await trx.selectFrom('users').selectAll().where('subject_id', '=', subjectId).executeTakeFirst();
        if (!beforeRow) throw new AppError('not_found', `No user with subjectId ${subjectId}.`);
        const before = toUser(beforeRow);
        const values = {
          ...(changes.displayName !== undefined ? { display_name: changes.displayName.trim() } : {}),
          ...(changes.email !== undefined ? { email: changes.email } : {}),
          ...(changes.emailVerified !== undefined ? { email_verified: changes.emailVerified ? 1 : 0 } : {}),
          ...(changes.studentStatus !== undefined ? { student_status: changes.studentStatus } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.isAdmin !== undefined ? { is_admin: changes.isAdmin ? 1 : 0 } : {}),
          updated_at: clock.now(),
        };
        await trx.updateTable('users').set(values).where('subject_id', '=', subjectId).execute();
        if (changes.status === 'disabled') {
          // A disabled account keeps no live console or agent session.
          await trx.updateTable('sessions').set({ revoked_at: clock.now() }).where('subject_id', '=', subjectId).where('revoked_at', 'is', null).execute();
        }
        const after = toUser({ ...beforeRow, ...values });
        await writeAudit(trx, clock, actor, { action: 'user.update', targetType: 'user', targetId: subjectId, before: auditedFields(before), after: auditedFields(after) });
        return after;
      });
    },

    async setPassword(actor: Actor, subjectId: string, password: string): Promise<void> {
      requireAdmin(actor);
      checkPassword(password);
      await requireUser(subjectId);
      const passwordHash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: clock.now() }).where('subject_id', '=', subjectId).execute();
        await trx.updateTable('sessions').set({ revoked_at: clock.now() }).where('subject_id', '=', subjectId).where('revoked_at', 'is', null).execute();
        await writeAudit(trx, clock, actor, { action: 'user.password_reset', targetType: 'user', targetId: subjectId });
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;

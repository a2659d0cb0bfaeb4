import { sql } from 'kysely';
import { normalizeAccount, type User, type UserPosition } from '../../domain/accounts.ts';
import { precompile } from '../precompiled-query.ts';
import type { UserRow } from '../schema.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/** A user with the hash their password is checked against; only the password check sees it. */
export interface UserCredentials {
  user: User;
  passwordHash: string;
}

export type UserProfileChanges = Partial<Pick<User, 'displayName' | 'email' | 'emailVerified' | 'studentStatus' | 'status' | 'isAdmin' | 'locale'>>;

export interface UserRepository {
  findBySubjectId(subjectId: string): Promise<User | undefined>;
  /** Case-insensitive (see normalizeAccount); a name no row can hold finds nothing. */
  findByAccount(account: string): Promise<User | undefined>;
  findCredentialsByAccount(account: string): Promise<UserCredentials | undefined>;
  /** Every user, by account name. */
  list(): Promise<User[]>;
  /**
   * A page of people, newest first (`createdAt`, ties by `subjectId`, both descending), optionally only those whose
   * account, display name or email contains `query` (case-insensitive), strictly after the `before` position.
   */
  search(page: UserSearchPage): Promise<User[]>;
  /** The first-created administrator who is still active (ties by subjectId): the owner of what start-up imports. */
  findOldestActiveAdmin(): Promise<User | undefined>;
  count(): Promise<number>;
  /** False, and nothing written, when another user already holds the account (in any case). */
  insert(user: User, passwordHash: string): Promise<boolean>;
  /** False when no user has this subjectId. */
  update(subjectId: string, changes: UserProfileChanges, updatedAt: number): Promise<boolean>;
  setPasswordHash(subjectId: string, passwordHash: string, updatedAt: number): Promise<boolean>;
  /** The people whose verified address is `email` (case-insensitive): linking by email needs exactly one. */
  listByVerifiedEmail(email: string): Promise<User[]>;
  /** Whether the person can sign in with a local password (an invited or provisioned person has none). */
  hasPassword(subjectId: string): Promise<boolean>;
}

/** Where a page of people ends: the last person's creation time and subjectId. */
export type { UserPosition };

export interface UserSearchPage {
  query?: string | undefined;
  limit: number;
  before?: UserPosition | undefined;
}

/** A LIKE pattern that matches `text` anywhere, its own `%`, `_` and `\\` taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

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
    locale: row.locale ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const flag = (value: boolean) => (value ? 1 : 0);

function profileColumns(changes: UserProfileChanges) {
  return {
    ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.emailVerified !== undefined ? { email_verified: flag(changes.emailVerified) } : {}),
    ...(changes.studentStatus !== undefined ? { student_status: changes.studentStatus } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    ...(changes.isAdmin !== undefined ? { is_admin: flag(changes.isAdmin) } : {}),
    ...(changes.locale !== undefined ? { locale: changes.locale } : {}),
  };
}

export const userRepository: RepositoryFactory<UserRepository> = (db) => {
  // Every token, userinfo and sign-in request looks its user up: compiled once (precompiled-query.ts).
  const rowBySubjectId = precompile(['subjectId'], (value) => db.selectFrom('users').selectAll().where('subject_id', '=', value('subjectId')));
  const rowByAccount = precompile(['account'], (value) => db.selectFrom('users').selectAll().where('account_normalized', '=', value('account')));

  return (executor: Executor) => {
    // Ids and names come from cookies, URLs, forms and the command line; PostgreSQL would fail on a NUL.
    async function rowWithSubjectId(subjectId: string): Promise<UserRow | undefined> {
      if (!isStorableText(subjectId)) return undefined;
      return (await executor.executeQuery(rowBySubjectId({ subjectId }))).rows[0];
    }
    async function rowWithAccount(account: string): Promise<UserRow | undefined> {
      if (!isStorableText(account)) return undefined;
      return (await executor.executeQuery(rowByAccount({ account: normalizeAccount(account) }))).rows[0];
    }

    return {
      async findBySubjectId(subjectId) {
        const row = await rowWithSubjectId(subjectId);
        return row && toUser(row);
      },

      async findByAccount(account) {
        const row = await rowWithAccount(account);
        return row && toUser(row);
      },

      async findCredentialsByAccount(account) {
        const row = await rowWithAccount(account);
        return row && { user: toUser(row), passwordHash: row.password_hash };
      },

      async list() {
        const rows = await executor.selectFrom('users').selectAll().orderBy('account_normalized').execute();
        return rows.map(toUser);
      },

      async search(page) {
        let select = executor.selectFrom('users').selectAll();
        if (page.query) {
          if (!isStorableText(page.query)) return [];
          const pattern = containsPattern(page.query.toLowerCase());
          const contains = (column: 'account_normalized' | 'display_name' | 'email') => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
          select = select.where((eb) => eb.or([contains('account_normalized'), contains('display_name'), contains('email')]));
        }
        if (page.before) {
          const { createdAt, subjectId } = page.before;
          if (!isStorableText(subjectId)) return [];
          select = select.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('subject_id', '<', subjectId)])]));
        }
        const rows = await select.orderBy('created_at', 'desc').orderBy('subject_id', 'desc').limit(page.limit).execute();
        return rows.map(toUser);
      },

      async findOldestActiveAdmin() {
        const row = await executor
          .selectFrom('users')
          .selectAll()
          .where('is_admin', '=', 1)
          .where('status', '=', 'active')
          .orderBy('created_at')
          .orderBy('subject_id')
          .limit(1)
          .executeTakeFirst();
        return row && toUser(row);
      },

      async count() {
        const { count } = await executor.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
        return Number(count);
      },

      async insert(user, passwordHash) {
        // One statement decides a race between two creations of one account: the unique index, not a read first.
        const inserted = await executor
          .insertInto('users')
          .values({
            subject_id: user.subjectId,
            account: user.account,
            account_normalized: normalizeAccount(user.account),
            password_hash: passwordHash,
            display_name: user.displayName,
            email: user.email,
            email_verified: flag(user.emailVerified),
            student_status: user.studentStatus,
            is_admin: flag(user.isAdmin),
            status: user.status,
            locale: user.locale ?? null,
            created_at: user.createdAt,
            updated_at: user.updatedAt,
          })
          .onConflict((oc) => oc.column('account_normalized').doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
      },

      async update(subjectId, changes, updatedAt) {
        if (!isStorableText(subjectId)) return false;
        const updated = await executor.updateTable('users').set({ ...profileColumns(changes), updated_at: updatedAt }).where('subject_id', '=', subjectId).executeTakeFirst();
        return Number(updated.numUpdatedRows) > 0;
      },

      async listByVerifiedEmail(email) {
        if (!isStorableText(email)) return [];
        const rows = await executor
          .selectFrom('users')
          .selectAll()
          .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
          .where('email_verified', '=', 1)
          .orderBy('created_at')
          .execute();
        return rows.map(toUser);
      },

      async hasPassword(subjectId) {
        const row = await rowWithSubjectId(subjectId);
        return row !== undefined && row.password_hash !== '';
      },

      async setPasswordHash(subjectId, passwordHash, updatedAt) {
        if (!isStorableText(subjectId)) return false;
        const updated = await executor.updateTable('users').set({ password_hash: passwordHash, updated_at: updatedAt }).where('subject_id', '=', subjectId).executeTakeFirst();
        return Number(updated.numUpdatedRows) > 0;
      },
    };
  };
};

import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db, Engine } from './database.ts';
import { auditLogRepository, type AuditLogRepository } from './repositories/audit-log-repository.ts';
import { instanceSettingsRepository, type InstanceSettingsRepository } from './repositories/instance-settings-repository.ts';
import { sessionRepository, type SessionRepository } from './repositories/session-repository.ts';
import { userRepository, type UserRepository } from './repositories/user-repository.ts';
import { oidcPayloadRepository, type OidcPayloadRepository } from './repositories/oidc-payload-repository.ts';
import { signingKeyRepository, type SigningKeyRepository } from './repositories/signing-key-repository.ts';
import type { Database } from './schema.ts';

/** What a repository runs its statements on: the database, or the transaction it was opened in. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A repository's statements are compiled once per database (`bind(db)`), then run on whichever
 * executor the store hands it: the database itself, or one transaction.
 */
export type RepositoryFactory<Repository> = (db: Db) => (executor: Executor) => Repository;

/** Every table group's one owner. Services and src/oidc/ reach tables only through these. */
export interface Repositories {
  auditLog: AuditLogRepository;
  users: UserRepository;
  sessions: SessionRepository;
  instanceSettings: InstanceSettingsRepository;
  oidcPayloads: OidcPayloadRepository;
  signingKeys: SigningKeyRepository;
}

export interface Store {
  engine: Engine;
  /** The repositories outside any transaction: each statement stands alone. */
  repos: Repositories;
  /** Runs `work` in one transaction; every repository it is handed writes inside it (commit or roll back together). */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /** Whether the database answers a trivial statement (the readiness probe). */
  ping(): Promise<boolean>;
}

/** Whether the database answers a trivial statement: what /health/ready asks of storage. */
export async function pingDatabase(db: Db): Promise<boolean> {
  return (await sql`select 1 as ok`.execute(db)).rows.length === 1;
}

export function createStore(db: Db, engine: Engine): Store {
  const bound = {
    auditLog: auditLogRepository(db),
    users: userRepository(db),
    sessions: sessionRepository(db),
    instanceSettings: instanceSettingsRepository(db),
    oidcPayloads: oidcPayloadRepository(engine)(db),
    signingKeys: signingKeyRepository(db),
  };
  const on = (executor: Executor): Repositories => ({
    auditLog: bound.auditLog(executor),
    users: bound.users(executor),
    sessions: bound.sessions(executor),
    instanceSettings: bound.instanceSettings(executor),
    oidcPayloads: bound.oidcPayloads(executor),
    signingKeys: bound.signingKeys(executor),
  });
  return {
    engine,
    repos: on(db),
    transaction: (work) => db.transaction().execute((trx) => work(on(trx))),
    ping: () => pingDatabase(db),
  };
}

import type { Kysely, Transaction } from 'kysely';
import type { Db, Engine } from './database.ts';
import { auditLogRepository, type AuditLogRepository } from './repositories/audit-log-repository.ts';
import { clientRepository, type ClientRepository } from './repositories/client-repository.ts';
import { clientSecretRepository, type ClientSecretRepository } from './repositories/client-secret-repository.ts';
import { memberRepository, type MemberRepository } from './repositories/member-repository.ts';
import { projectRepository, type ProjectRepository } from './repositories/project-repository.ts';
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
  projects: ProjectRepository;
  members: MemberRepository;
  clients: ClientRepository;
  clientSecrets: ClientSecretRepository;
}

export interface Store {
  engine: Engine;
  /** The repositories outside any transaction: each statement stands alone. */
  repos: Repositories;
  /** Runs `work` in one transaction; every repository it is handed writes inside it (commit or roll back together). */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}

export function createStore(db: Db, engine: Engine): Store {
  const bound = {
    auditLog: auditLogRepository(db),
    projects: projectRepository(db),
    members: memberRepository(db),
    clients: clientRepository(db),
    clientSecrets: clientSecretRepository(db),
  };
  const on = (executor: Executor): Repositories => ({
    auditLog: bound.auditLog(executor),
    projects: bound.projects(executor),
    members: bound.members(executor),
    clients: bound.clients(executor),
    clientSecrets: bound.clientSecrets(executor),
  });
  return {
    engine,
    repos: on(db),
    transaction: (work) => db.transaction().execute((trx) => work(on(trx))),
  };
}

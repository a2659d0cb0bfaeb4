import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db, Engine } from './database.ts';
import { accountLinkRepository } from './repositories/account-link-repository.ts';
import { accountFactorRepository } from './repositories/account-factor-repository.ts';
import { auditLogRepository } from './repositories/audit-log-repository.ts';
import { clientRepository } from './repositories/client-repository.ts';
import { clientSecretRepository } from './repositories/client-secret-repository.ts';
import { groupRepository } from './repositories/group-repository.ts';
import { identityProviderRepository } from './repositories/identity-provider-repository.ts';
import { idempotencyKeyRepository } from './repositories/idempotency-key-repository.ts';
import { instanceSettingsRepository } from './repositories/instance-settings-repository.ts';
import { mailOutboxRepository } from './repositories/mail-outbox-repository.ts';
import { memberRepository } from './repositories/member-repository.ts';
import { oidcPayloadRepository } from './repositories/oidc-payload-repository.ts';
import { projectRepository } from './repositories/project-repository.ts';
import { rememberedConsentRepository } from './repositories/remembered-consent-repository.ts';
import { securitySettingsRepository } from './repositories/security-settings-repository.ts';
import { sessionRepository } from './repositories/session-repository.ts';
import { signingKeyRepository } from './repositories/signing-key-repository.ts';
import { upstreamIdentityRepository } from './repositories/upstream-identity-repository.ts';
import { upstreamSignInRepository } from './repositories/upstream-sign-in-repository.ts';
import { userRepository } from './repositories/user-repository.ts';
import { webauthnChallengeRepository } from './repositories/webauthn-challenge-repository.ts';
import { readCacheOf, type ReadCache } from './read-cache.ts';
import type { Database } from './schema.ts';

/** What a repository runs its statements on: the database, or the transaction it was opened in. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A repository's statements are compiled once per database (`factory(db, engine)`), then run on
 * whichever executor the store hands it: the database itself, or one transaction.
 */
export type RepositoryFactory<Repository> = (db: Db, engine: Engine) => (executor: Executor) => Repository;

/** Every table group's one owner. Services and src/oidc/ reach tables only through these. */
const REPOSITORY_FACTORIES = {
  auditLog: auditLogRepository,
  users: userRepository,
  sessions: sessionRepository,
  instanceSettings: instanceSettingsRepository,
  projects: projectRepository,
  members: memberRepository,
  clients: clientRepository,
  clientSecrets: clientSecretRepository,
  oidcPayloads: oidcPayloadRepository,
  rememberedConsents: rememberedConsentRepository,
  signingKeys: signingKeyRepository,
  accountLinks: accountLinkRepository,
  mailOutbox: mailOutboxRepository,
  idempotencyKeys: idempotencyKeyRepository,
  accountFactors: accountFactorRepository,
  securitySettings: securitySettingsRepository,
  webauthnChallenges: webauthnChallengeRepository,
  identityProviders: identityProviderRepository,
  upstreamIdentities: upstreamIdentityRepository,
  upstreamSignIns: upstreamSignInRepository,
  groups: groupRepository,
};

type Factories = typeof REPOSITORY_FACTORIES;
export type Repositories = { [Name in keyof Factories]: ReturnType<ReturnType<Factories[Name]>> };

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

/**
 * Outside a transaction, the protocol's client and the person come from the database's read cache
 * (read-cache.ts) when it can vouch for them; inside one, every read sees the transaction.
 */
function withCachedReads(repos: Repositories, cache: ReadCache | undefined): Repositories {
  if (!cache) return repos;
  const { clients, users } = repos;
  return {
    ...repos,
    clients: { ...clients, findForProtocol: (clientId) => cache.client(clientId, () => clients.findForProtocol(clientId)) },
    users: { ...users, findBySubjectId: (subjectId) => cache.user(subjectId, () => users.findBySubjectId(subjectId)) },
  };
}

export function createStore(db: Db, engine: Engine): Store {
  const bound = Object.entries(REPOSITORY_FACTORIES).map(([name, factory]) => [name, factory(db, engine)] as const);
  const on = (executor: Executor) => Object.fromEntries(bound.map(([name, bind]) => [name, bind(executor)])) as Repositories;
  return {
    engine,
    repos: withCachedReads(on(db), readCacheOf(db)),
    transaction: (work) => db.transaction().execute((trx) => work(on(trx))),
    ping: () => pingDatabase(db),
  };
}

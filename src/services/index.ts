import { createAccountService } from './account.ts';
import { createAuditLogService } from './audit-log.ts';
import { createClientImportService } from './client-import.ts';
import { createClientSecretService } from './client-secrets.ts';
import { createClientService } from './clients.ts';
import type { Clock } from '../domain/clock.ts';
import { unlimitedSignIns, type SignInLimiter } from '../rate-limit/sign-in-limiter.ts';
import type { Db, Engine } from '../storage/database.ts';
import { createStore } from '../storage/store.ts';
import { createFactorService } from './factors.ts';
import { createMemberService } from './members.ts';
import { createProjectService } from './projects.ts';
import { createSecuritySettingsService } from './security-settings.ts';
import { createSessionService } from './sessions.ts';
import { createUserService } from './users.ts';

/**
 * Every use case, shared by the Agent API, the Management API, the CLI and start-up. A server passes
 * its sign-in limiter; without one (the command line) sign-ins are not limited.
 */
export function createServices({ db, engine, clock, signInLimiter = unlimitedSignIns, keyEncryptionSecret }: { db: Db; engine: Engine; clock: Clock; signInLimiter?: SignInLimiter; keyEncryptionSecret?: string | undefined }) {
  const deps = { store: createStore(db, engine), clock, signInLimiter, keyEncryptionSecret };
  return {
    users: createUserService(deps),
    sessions: createSessionService(deps),
    projects: createProjectService(deps),
    members: createMemberService(deps),
    clients: { ...createClientService(deps), ...createClientSecretService(deps), ...createClientImportService(deps) },
    audit: createAuditLogService(deps),
    account: createAccountService(deps),
    factors: createFactorService(deps),
    settings: createSecuritySettingsService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;

import { systemActor } from '../../../src/domain/actor.ts';
import { buildConsoleIfStale } from '../../../web/build-if-stale.ts';
import type { Engine } from '../../../src/storage/database.ts';
import { startOidcTestServer, type OidcTestServer } from '../../helpers/oidc-server.ts';

export const ADMIN = { account: 'admin', password: 'admin-password-e2e' } as const;

export interface ConsoleServer extends OidcTestServer {
  consoleUrl: (path?: string) => string;
  /** Creates an ordinary (non-admin) user the way an administrator would. */
  createUser: (account: string, displayName: string, password?: string) => Promise<{ subjectId: string; account: string; password: string }>;
}

export interface ConsoleServerOptions {
  /** SQLite unless a suite whose stored result matters runs on each engine. */
  engine?: Engine;
  issuerHost?: 'localhost';
  env?: Record<string, string>;
}

/**
 * The browser suites run on SQLite only (issue 4): the pages are the same on either engine, and the
 * engine-specific behaviour is covered by the API and service suites. They are skipped when
 * SESAME_TEST_ENGINES leaves SQLite out, so `npm run test:pg` does not repeat them.
 *
 * The real Sesame app, listening on 127.0.0.1 with the console built from web/,
 * and a known administrator. The clock is manual, so a test can make a session expire.
 */
export async function startConsoleServer(options: ConsoleServerOptions = {}): Promise<ConsoleServer> {
  await buildConsoleIfStale({ quiet: true });
  const server = await startOidcTestServer(
    options.engine ?? 'sqlite',
    {
      OIDC_BOOTSTRAP_ADMIN_ACCOUNT: ADMIN.account,
      OIDC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      ...options.env,
    },
    options.issuerHost ? { issuerHost: options.issuerHost } : {},
  );
  return Object.assign(server, {
    consoleUrl: (path = '/') => `${server.issuer}/console${path}`,
    async createUser(account: string, displayName: string, password = `${account}-password-e2e`) {
      const user = await server.services.users.createUser(systemActor, { account, displayName, password });
      return { subjectId: user.subjectId, account, password };
    },
  });
}

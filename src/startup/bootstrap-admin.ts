import { ConfigError, type Config } from '../config.ts';
import { accountNameProblem } from '../domain/accounts.ts';
import { systemActor } from '../domain/actor.ts';
import { passwordProblem } from '../domain/passwords.ts';
import { randomBase62 } from '../domain/ids.ts';
import type { Services } from '../services/index.ts';
import type { User } from '../services/people/users.ts';

export interface BootstrapResult {
  admin: User;
  /** Set only when the password was generated here; shown once on start, never stored in clear. */
  generatedPassword?: string;
}

/** Creates the first administrator while the database has no users at all. */
export async function ensureBootstrapAdmin(config: Config, services: Services): Promise<BootstrapResult | null> {
  if ((await services.users.countUsers()) > 0) return null;
  const configured = config.bootstrapAdmin.password;
  if (!configured && config.production) {
    throw new ConfigError(['OIDC_BOOTSTRAP_ADMIN_PASSWORD: required in production while the database has no users (at least 12 characters)']);
  }
  const password = configured ?? randomBase62(20);
  // The service trusts its callers to have applied the field rules (the API contracts do): so does start-up.
  const problems = [
    ...[accountNameProblem(config.bootstrapAdmin.account)].filter(Boolean).map((problem) => `OIDC_BOOTSTRAP_ADMIN_ACCOUNT: ${problem}`),
    ...[passwordProblem(password)].filter(Boolean).map((problem) => `OIDC_BOOTSTRAP_ADMIN_PASSWORD: ${problem}`),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const admin = await services.users.createUser(systemActor, {
    account: config.bootstrapAdmin.account,
    displayName: 'Administrator',
    isAdmin: true,
    password,
  });
  return configured ? { admin } : { admin, generatedPassword: password };
}

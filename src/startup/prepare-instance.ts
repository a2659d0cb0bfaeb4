import type { Config } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { ensureBootstrapAdmin, type BootstrapResult } from './bootstrap-admin.ts';
import { resolveInstanceSecrets, type InstanceSecrets } from './instance-secrets.ts';
import { ensureSigningKeys } from '../oidc/signing-keys.ts';
import { importConfiguredClients } from './first-deployment.ts';
import type { Services } from '../services/index.ts';
import { engineOf, type Db } from '../storage/database.ts';
import { createStore } from '../storage/store.ts';

export interface PreparedInstance {
  instanceSecrets: InstanceSecrets;
  bootstrap: BootstrapResult | null;
  /** Client ids imported from OIDC_CLIENTS_CONFIG_PATH on this start (empty when clients already existed). */
  importedClients: string[];
}

/** Everything a fresh database needs before the server can serve: secrets, first admin, keys, clients. */
export async function prepareInstance(deps: { config: Config; db: Db; clock: Clock; services: Services }): Promise<PreparedInstance> {
  const store = createStore(deps.db, engineOf(deps.config.databaseUrl));
  const instanceSecrets = await resolveInstanceSecrets(deps.config, store, deps.clock);
  await ensureSigningKeys(store, deps.clock, instanceSecrets.keyEncryptionSecret);
  const bootstrap = await ensureBootstrapAdmin(deps.config, deps.services);
  const importedClients = await importConfiguredClients(deps.config, deps.services);
  return { instanceSecrets, bootstrap, importedClients };
}

import { ConfigError, type Config } from '../config.ts';
import { systemActor } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import type { Services } from './index.ts';

/**
 * The start-up step for OIDC_CLIENTS_CONFIG_PATH: imports the file while no client exists yet.
 * A bad file stops the start with one line per problem, naming the entry and the field.
 */
export async function importConfiguredClients(config: Pick<Config, 'clientsConfigPath'>, services: Pick<Services, 'clients' | 'identityProviders'>): Promise<string[]> {
  const path = config.clientsConfigPath;
  if (!path) return [];
  try {
    // The file's identity providers too (`identityProviders`), imported while none exists.
    await services.identityProviders.importProvidersFromFile(systemActor, path);
    return (await services.clients.importClientsFromFile(systemActor, path)).imported;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const problems = error.fieldErrors
      ? Object.entries(error.fieldErrors).map(([field, message]) => `OIDC_CLIENTS_CONFIG_PATH (${path}): ${field}${entryLabel(error.message, field)}: ${message}`)
      : [`OIDC_CLIENTS_CONFIG_PATH: ${error.message}`];
    throw new ConfigError(problems);
  }
}

// The service's description already names each entry's clientId; reuse it rather than re-reading the file.
function entryLabel(description: string, field: string): string {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped} (\\(clientId "[^"]*"\\))`).exec(description);
  return match ? ` ${match[1]}` : '';
}

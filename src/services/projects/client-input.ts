import { normalizeConfiguration } from '../../domain/client-rules.ts';
import type { ClientConfiguration, ClientType } from '../../domain/clients.ts';

// What the client use cases take. The zod contracts (src/api/contracts/clients.ts) have already judged
// it by the client rules; the services add only the checks that need the database or the actor.

export interface ClientConfigurationInput {
  redirectUris: string[];
  postLogoutRedirectUris?: string[] | undefined;
  scopeWhitelist: string[];
  requirePkce?: boolean | undefined;
  claimsInIdToken?: boolean | undefined;
}

export interface ClientRegistrationInput extends ClientConfigurationInput {
  clientType: ClientType;
  displayName: string;
  description?: string | undefined;
}

export interface CheckedRegistration {
  clientType: ClientType;
  displayName: string;
  description: string;
  configuration: ClientConfiguration;
}

/** The registration as stored: text trimmed, configuration defaults filled in. */
export function normalizeRegistration(input: ClientRegistrationInput): CheckedRegistration {
  return {
    clientType: input.clientType,
    displayName: input.displayName.trim(),
    description: input.description?.trim() ?? '',
    configuration: normalizeConfiguration(input.clientType, input),
  };
}

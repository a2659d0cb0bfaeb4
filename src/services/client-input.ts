import { CLIENT_LIMITS, CLIENT_TYPES, checkClientConfiguration, type ClientConfiguration, type ClientType } from '../domain/clients.ts';
import { textProblem } from '../domain/text-fields.ts';

export interface ClientConfigurationInput {
  redirectUris: string[];
  postLogoutRedirectUris?: string[] | undefined;
  scopeWhitelist: string[];
  requirePkce?: boolean | undefined;
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

type Checked<T> = { ok: true; value: T } | { ok: false; fieldErrors: Record<string, string> };

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Field problems of display name and description (shared by registration, metadata changes and the import). */
export function clientTextProblems(input: { displayName?: unknown; description?: unknown }, required: boolean): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  if (required || input.displayName !== undefined) {
    const problem = textProblem(input.displayName, { required: true, maxLength: CLIENT_LIMITS.maxDisplayNameLength, singleLine: true });
    if (problem) fieldErrors.displayName = problem;
  }
  if (input.description !== undefined) {
    const problem = textProblem(input.description, { required: false, maxLength: CLIENT_LIMITS.maxDescriptionLength });
    if (problem) fieldErrors.description = problem;
  }
  return fieldErrors;
}

/** The OIDC configuration with runtime type checks first, so callers other than the zod-validated APIs are safe too. */
export function checkConfigurationInput(clientType: ClientType, input: Partial<Record<keyof ClientConfigurationInput, unknown>>): Checked<ClientConfiguration> {
  const fieldErrors: Record<string, string> = {};
  if (!isStringList(input.redirectUris)) fieldErrors.redirectUris = 'must be an array of URI strings';
  if (input.postLogoutRedirectUris !== undefined && !isStringList(input.postLogoutRedirectUris)) {
    fieldErrors.postLogoutRedirectUris = 'must be an array of URI strings';
  }
  if (!isStringList(input.scopeWhitelist)) fieldErrors.scopeWhitelist = 'must be an array of scope names';
  if (input.requirePkce !== undefined && typeof input.requirePkce !== 'boolean') fieldErrors.requirePkce = 'must be true or false';
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  const checked = checkClientConfiguration(clientType, input as ClientConfigurationInput);
  return checked.ok ? { ok: true, value: checked.configuration } : checked;
}

export function checkRegistrationInput(input: Partial<Record<keyof ClientRegistrationInput, unknown>>): Checked<CheckedRegistration> {
  if (!(CLIENT_TYPES as readonly unknown[]).includes(input.clientType)) {
    return { ok: false, fieldErrors: { clientType: `must be one of ${CLIENT_TYPES.join(', ')}`, ...clientTextProblems(input, true) } };
  }
  const clientType = input.clientType as ClientType;
  const fieldErrors = clientTextProblems(input, true);
  const configuration = checkConfigurationInput(clientType, input);
  if (!configuration.ok) Object.assign(fieldErrors, configuration.fieldErrors);
  if (!configuration.ok || Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return {
    ok: true,
    value: {
      clientType,
      displayName: (input.displayName as string).trim(),
      description: typeof input.description === 'string' ? input.description.trim() : '',
      configuration: configuration.value,
    },
  };
}

import { configurationProblems, redirectUriProblem } from '../../src/domain/client-rules.ts';
import { CLIENT_LIMITS, SCOPES, type ClientType, type Scope } from '../../src/domain/clients.ts';
import { invisibleFormattingProblem } from '../../src/domain/text-rules.ts';
import type { Client } from './api/types.ts';
import type { ListFields } from './three-way-merge.ts';

/** The OIDC configuration as the form holds it: URIs one per line. */
export interface ConfigDraft {
  redirectUris: string;
  postLogoutRedirectUris: string;
  scopeWhitelist: Scope[];
  requirePkce: boolean;
  claimsInIdToken: boolean;
}

export interface ClientConfigBody {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  scopeWhitelist: Scope[];
  requirePkce: boolean;
  claimsInIdToken: boolean;
}

export const emptyDraft = (): ConfigDraft => ({ redirectUris: '', postLogoutRedirectUris: '', scopeWhitelist: ['openid', 'profile', 'email'], requirePkce: true, claimsInIdToken: false });

export const draftFromClient = (client: Client): ConfigDraft => ({
  redirectUris: client.redirectUris.join('\n'),
  postLogoutRedirectUris: client.postLogoutRedirectUris.join('\n'),
  scopeWhitelist: [...client.scopeWhitelist],
  requirePkce: client.requirePkce,
  claimsInIdToken: client.claimsInIdToken,
});

export const uriLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function bodyFromDraft(draft: ConfigDraft): ClientConfigBody {
  return {
    redirectUris: uriLines(draft.redirectUris),
    postLogoutRedirectUris: uriLines(draft.postLogoutRedirectUris),
    scopeWhitelist: SCOPES.filter((scope) => scope === 'openid' || draft.scopeWhitelist.includes(scope)),
    requirePkce: draft.requirePkce,
    claimsInIdToken: draft.claimsInIdToken,
  };
}

/** After a version conflict, each person's additions and removals of URIs and scopes are combined (three-way-merge.ts). */
export const configListFields: ListFields<ConfigDraft> = {
  redirectUris: (items) => (items as string[]).join('\n'),
  postLogoutRedirectUris: (items) => (items as string[]).join('\n'),
  scopeWhitelist: (items) => items as Scope[],
};

/** A draft made valid for a type: spa and native clients always require PKCE; a spa never has offline_access. */
export function fitDraftToType(draft: ConfigDraft, clientType: ClientType): ConfigDraft {
  if (clientType === 'native') return { ...draft, requirePkce: true };
  if (clientType !== 'spa') return draft;
  return { ...draft, requirePkce: true, scopeWhitelist: draft.scopeWhitelist.filter((scope) => scope !== 'offline_access') };
}

function uriListProblem(text: string): string | undefined {
  const lines = uriLines(text);
  for (const [index, uri] of lines.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) return `Line ${index + 1} (${uri.length > 60 ? `${uri.slice(0, 57)}…` : uri}) ${problem}.`;
  }
  return undefined;
}

/**
 * Problems keyed by field path (`redirectUris.0`, as the rules and the server's field_errors name them) gathered
 * under their top-level field, where the form shows them; an item's problem names its line.
 */
export function problemsByField(byPath: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [path, problem] of Object.entries(byPath)) {
    const [field = path, item] = path.split('.');
    const message = item === undefined ? problem : `URI ${Number(item) + 1}: ${problem}`;
    problems[field] = Object.hasOwn(problems, field) ? `${problems[field]}; ${message}` : message;
  }
  return problems;
}

/** The server's registration rules, applied while typing; keys are the API's field names. */
export function configProblems(clientType: ClientType, draft: ConfigDraft): Record<string, string> {
  const body = bodyFromDraft(draft);
  const problems = problemsByField(configurationProblems(clientType, body));
  for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
    const lineProblem = uriListProblem(draft[field]);
    if (lineProblem) problems[field] = lineProblem;
  }
  return problems;
}

const hiddenFormattingProblem = (text: string) => {
  const problem = invisibleFormattingProblem(text);
  return problem ? `It ${problem}; retype it without them.` : undefined;
};

export function displayNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'A client needs a display name; people see it on the consent page.';
  if (name.length > CLIENT_LIMITS.maxDisplayNameLength) return `At most ${CLIENT_LIMITS.maxDisplayNameLength} characters.`;
  return hiddenFormattingProblem(name);
}

export function descriptionProblem(description: string): string | undefined {
  return description.length > CLIENT_LIMITS.maxDescriptionLength ? `At most ${CLIENT_LIMITS.maxDescriptionLength} characters.` : hiddenFormattingProblem(description);
}

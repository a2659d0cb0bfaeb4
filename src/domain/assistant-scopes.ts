/**
 * What an assistant's token may do, on top of the person's own role (never beyond it). These are
 * scopes of Sesame's own resources (`{issuer}/mcp`, `{issuer}/api/agent`), outside any client's
 * scopeWhitelist: any native client may ask for them with the `resource` parameter.
 */
export const ASSISTANT_SCOPES = ['sesame:read', 'sesame:write', 'sesame:admin'] as const;
export type AssistantScope = (typeof ASSISTANT_SCOPES)[number];

/** The consent page's plain words for each scope. */
export const ASSISTANT_SCOPE_DESCRIPTIONS: Record<AssistantScope, string> = {
  'sesame:read': 'See your projects, their members, clients and audit trail, and your own sessions, connected applications and sign-in factors',
  'sesame:write': 'Make every change your role allows: create and edit projects, register and change clients, rotate and revoke secrets, manage members; and end your sessions and withdraw connected applications (never your password, email or sign-in factors: only you change those, in the console)',
  'sesame:admin': 'Use your administrator rights: manage people and instance settings',
};

/** The resources' paths below the issuer. */
export const ASSISTANT_RESOURCE_PATHS = { mcp: '/mcp', agent: '/api/agent' } as const;
export type AssistantResource = keyof typeof ASSISTANT_RESOURCE_PATHS;

export const isAssistantScope = (scope: string): scope is AssistantScope => (ASSISTANT_SCOPES as readonly string[]).includes(scope);

/** What an assistant asks for by default, and what the 401's `scope` names: never sesame:admin, which an administrator's assistant asks for explicitly. */
export const DEFAULT_ASSISTANT_SCOPES: readonly AssistantScope[] = ['sesame:read', 'sesame:write'];

/** The Agent API path (and MCP tool) by which an assistant ends its own connection: leaving needs no more than reading. */
export const DISCONNECT_PATH = '/auth/disconnect';

/**
 * The one mapping of an operation to the scopes a token needs for it: reads need sesame:read, every
 * other method sesame:write (except disconnecting, which sesame:read allows), and the administrators'
 * operations (`/admin/...`) sesame:admin as well.
 */
export function scopesRequiredFor(operation: { method: string; path: string }): AssistantScope[] {
  const readOnly = operation.method === 'GET' || (operation.method === 'POST' && operation.path === DISCONNECT_PATH);
  const required: AssistantScope[] = [readOnly ? 'sesame:read' : 'sesame:write'];
  if (operation.path === '/admin' || operation.path.startsWith('/admin/')) required.push('sesame:admin');
  return required;
}

/** sesame:write implies sesame:read; sesame:admin implies nothing else. */
export function scopeGranted(granted: readonly string[], required: AssistantScope): boolean {
  if (granted.includes(required)) return true;
  return required === 'sesame:read' && granted.includes('sesame:write');
}

/** The first scope the operation needs that the token lacks, or undefined when it has them all. */
export function missingScope(granted: readonly string[], operation: { method: string; path: string }): AssistantScope | undefined {
  return scopesRequiredFor(operation).find((scope) => !scopeGranted(granted, scope));
}

/**
 * The scope a token must be re-authorized with to call the operation (RFC 6750's insufficient_scope
 * challenge): what it has plus what the operation needs, so stepping up never loses a scope.
 */
export function steppedUpScopes(granted: readonly string[], operation: { method: string; path: string }): AssistantScope[] {
  const wanted = new Set([...granted, ...scopesRequiredFor(operation)]);
  return ASSISTANT_SCOPES.filter((scope) => wanted.has(scope));
}

/**
 * What the consent page grants of what was asked: sesame:admin only to an administrator; read-only
 * (the person's opt-in) keeps sesame:read alone, which a request for sesame:write implies.
 */
export function grantableScopes(requested: readonly string[], options: { isAdmin: boolean; readOnly: boolean }): AssistantScope[] {
  const asked = ASSISTANT_SCOPES.filter((scope) => requested.includes(scope));
  if (options.readOnly) return asked.length > 0 ? ['sesame:read'] : [];
  return asked.filter((scope) => scope !== 'sesame:admin' || options.isAdmin);
}

/** A resource's indicator (the token audience) and its RFC 9728 metadata address, under the issuer. */
export function assistantResourceUrls(issuer: string, resource: AssistantResource): { resource: string; metadataUrl: string } {
  const path = ASSISTANT_RESOURCE_PATHS[resource];
  return { resource: `${issuer}${path}`, metadataUrl: `${issuer}/.well-known/oauth-protected-resource${path}` };
}

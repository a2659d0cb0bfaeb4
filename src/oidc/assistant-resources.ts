import { errors, type Client, type Configuration } from 'oidc-provider';
import type { Config } from '../config.ts';
import { ASSISTANT_RESOURCE_PATHS, ASSISTANT_SCOPES, type AssistantResource } from '../domain/assistant-scopes.ts';
import type { SesameClientFields } from './client-metadata.ts';
import { TOKEN_LIFETIMES } from './token-lifetimes.ts';

/**
 * Whether an authorization of Sesame's own resources (`resource` given) by a native client whose
 * whitelist has offline_access stays connected: refresh tokens, not bound to the browser's session,
 * even when the assistant asked only for the sesame:* scopes (as MCP clients do: they ask for the
 * protected resource's scopes_supported, which names no offline_access).
 */
export function assistantStaysConnected(client: Client, source: object): boolean {
  const resource = (source as { resource?: string | string[] }).resource;
  return (client as Client & SesameClientFields).sesame_client_type === 'native' && client.grantTypeAllowed('refresh_token') && resource !== undefined && resource.length > 0;
}

/** The resource indicators (RFC 8707) of Sesame's own APIs that are mounted, by name. */
export function assistantResources(config: Pick<Config, 'issuer' | 'mcpEnabled' | 'agentApiEnabled'>): Partial<Record<AssistantResource, string>> {
  return {
    ...(config.mcpEnabled ? { mcp: `${config.issuer}${ASSISTANT_RESOURCE_PATHS.mcp}` } : {}),
    ...(config.agentApiEnabled ? { agent: `${config.issuer}${ASSISTANT_RESOURCE_PATHS.agent}` } : {}),
  };
}

/**
 * oidc-provider's resourceIndicators feature: a native client may ask for an access token whose
 * audience is /mcp or /api/agent; every other resource, and these for web and spa clients, is
 * invalid_target, so a relying party's token never opens Sesame's own APIs. The tokens are opaque
 * (kept in oidc_payloads), so revoking the grant ends them at once.
 */
export function resourceIndicatorsFeature(config: Config): NonNullable<Configuration['features']>['resourceIndicators'] {
  const known = new Set(Object.values(assistantResources(config)));
  return {
    enabled: true,
    async defaultResource(_ctx, _client, oneOf) {
      return oneOf ?? undefined;
    },
    async useGrantedResource() {
      return false;
    },
    async getResourceServerInfo(_ctx, resourceIndicator, client: Client) {
      if (!known.has(resourceIndicator)) throw new errors.InvalidTarget(`unknown resource; Sesame issues tokens for ${[...known].join(' and ') || 'no resource'}`);
      if ((client as Client & SesameClientFields).sesame_client_type !== 'native') {
        throw new errors.InvalidTarget('only native (assistant) clients may ask for a token for this resource');
      }
      return {
        scope: ASSISTANT_SCOPES.join(' '),
        audience: resourceIndicator,
        accessTokenFormat: 'opaque',
        accessTokenTTL: TOKEN_LIFETIMES.accessToken,
      };
    },
  };
}

import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import { ASSISTANT_SCOPES } from '../domain/assistant-scopes.ts';
import { assistantResources } from './assistant-resources.ts';

const DISCOVERY_PATH = '/.well-known/openid-configuration';

/**
 * Adds Sesame's resource scopes (sesame:read, sesame:write, sesame:admin) to the discovery
 * document's scopes_supported (served also as /.well-known/oauth-authorization-server), while at
 * least one of their resources is mounted. oidc-provider lists only its `scopes`, and these cannot
 * be among them: they are granted per resource (assistant-resources.ts), never as OpenID scopes.
 */
export function advertiseAssistantScopes(config: Pick<Config, 'issuer' | 'mcpEnabled' | 'agentApiEnabled'>) {
  const advertised = Object.keys(assistantResources(config)).length > 0;
  return async function assistantScopesInDiscovery(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    if (!advertised || ctx.method !== 'GET' || ctx.path !== DISCOVERY_PATH || ctx.status !== 200) return;
    const body = ctx.body as { scopes_supported?: unknown } | undefined;
    if (!body || !Array.isArray(body.scopes_supported)) return;
    body.scopes_supported = [...new Set([...(body.scopes_supported as string[]), ...ASSISTANT_SCOPES])];
  };
}

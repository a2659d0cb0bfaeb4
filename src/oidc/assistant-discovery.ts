import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { ASSISTANT_RESOURCE_PATHS, ASSISTANT_SCOPES, assistantResourceUrls, type AssistantResource } from '../domain/assistant-scopes.ts';
import { assistantResources } from './assistant-resources.ts';

const RESOURCE_NAMES: Record<AssistantResource, string> = { mcp: 'Sesame MCP server', agent: 'Sesame Agent API' };

/**
 * RFC 9728 protected-resource metadata for each of Sesame's own resources that is mounted: an MCP
 * client finds it from the 401's WWW-Authenticate header and learns which authorization server
 * (Sesame itself) issues tokens for it and with which scopes.
 */
export function registerProtectedResourceMetadata(app: FastifyInstance, config: Config): void {
  const mounted = assistantResources(config);
  for (const name of Object.keys(mounted) as AssistantResource[]) {
    const { resource } = assistantResourceUrls(config.issuer, name);
    const body = {
      resource,
      authorization_servers: [config.issuer],
      scopes_supported: [...ASSISTANT_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: RESOURCE_NAMES[name],
      resource_documentation: `${config.issuer}/api/agent/instructions`,
    };
    app.get(`/.well-known/oauth-protected-resource${ASSISTANT_RESOURCE_PATHS[name]}`, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*').send(body),
    );
  }
}

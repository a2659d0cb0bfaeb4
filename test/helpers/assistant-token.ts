import type { FastifyInstance } from 'fastify';

/**
 * An assistant's OAuth access token for one of Sesame's resources, made directly in oidc-provider (a grant
 * with the resource's scopes, then an opaque access token under it), for in-process suites that cannot run
 * the browser flow. The token is checked like any other at /mcp and /api/agent.
 */
export async function mintAssistantToken(app: FastifyInstance, options: { accountId: string; clientId: string; resource: string; scopes: readonly string[] }): Promise<string> {
  const provider = app.oidc.current();
  const grant = new provider.Grant({ accountId: options.accountId, clientId: options.clientId });
  grant.addResourceScope(options.resource, options.scopes.join(' '));
  const grantId = await grant.save();
  const client = await provider.Client.find(options.clientId);
  if (!client) throw new Error(`no client ${options.clientId}`);
  const token = new provider.AccessToken({ accountId: options.accountId, client, grantId, scope: options.scopes.join(' '), gty: 'authorization_code' });
  token.setAudience(options.resource);
  return token.save();
}

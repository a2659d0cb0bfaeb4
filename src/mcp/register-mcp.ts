import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerTokenOf } from '../api/bearer-token.ts';
import type { ApiDeps } from '../api/register-operations.ts';
import type { Actor } from '../domain/actor.ts';
import { assistantResourceUrls } from '../domain/assistant-scopes.ts';
import { AppError } from '../errors.ts';
import { renderMcpGuide, type AssistantTokenLifetimes } from './mcp-guide.ts';
import { buildCatalogue, createMcpServer } from './mcp-server.ts';
import { toolOperations } from './tool-operations.ts';

export const MCP_PATH = '/mcp';

// The headers the transport reads; the body reaches it already parsed by Fastify.
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

interface Caller {
  actor: Actor;
  signedIn: { user: NonNullable<Awaited<ReturnType<FastifyInstance['oidc']['verifyAssistantToken']>>>['user']; token: string; assistant: { clientId: string; scopes: readonly string[] } };
}

export interface McpDeps extends ApiDeps {
  /** What the guide tells an assistant about its tokens: the OIDC engine's own lifetimes. */
  assistantTokenLifetimes: AssistantTokenLifetimes;
}

/**
 * Sesame's MCP server at /mcp: Streamable HTTP, stateless (one MCP server per request, JSON
 * responses), authorized by Sesame's own OAuth access tokens for the resource {issuer}/mcp. A request
 * without a usable token gets 401 with the RFC 9728 metadata address, from which an MCP client
 * discovers Sesame as its authorization server.
 */
export async function mcpServer(app: FastifyInstance, deps: McpDeps): Promise<void> {
  const bodyLimit = app.initialConfig.bodyLimit ?? 1_048_576;
  const tools = toolOperations(deps.config, bodyLimit);
  const catalogue = buildCatalogue(tools, renderMcpGuide({ tools, lifetimes: deps.assistantTokenLifetimes, bodyLimitBytes: bodyLimit }));
  const { resource, metadataUrl } = assistantResourceUrls(deps.config.issuer, 'mcp');
  const callers = new WeakMap<FastifyRequest, Caller>();

  // Before the body is parsed: an unauthenticated request learns where to get a token, whatever it sent.
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    void reply.header('cache-control', 'no-store');
    const token = bearerTokenOf(request.headers.authorization);
    const verified = token ? await request.server.oidc.verifyAssistantToken(token, resource) : undefined;
    if (!token || !verified) {
      const error = token ? 'error="invalid_token", error_description="The access token is unknown, expired or revoked, or was not issued for this MCP server", ' : '';
      const description = token
        ? 'The access token is unknown, expired or revoked, or was not issued for this MCP server; sign in again through Sesame.'
        : `Send an OAuth access token for ${resource} as \`Authorization: Bearer <token>\`; ${metadataUrl} says where to get one.`;
      return reply.header('www-authenticate', `Bearer ${error}resource_metadata="${metadataUrl}"`).status(401).send(new AppError('login_required', description).toBody());
    }
    const assistant = { clientId: verified.clientId, scopes: verified.scopes };
    callers.set(request, {
      actor: { subjectId: verified.user.subjectId, isAdmin: verified.user.isAdmin, surface: 'mcp', ip: request.ip, viaClientId: verified.clientId, scopes: verified.scopes },
      signedIn: { user: verified.user, token, assistant },
    });
    return undefined;
  }

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: MCP_PATH,
    exposeHeadRoute: false,
    onRequest: authenticate,
    handler: async (request, reply) => {
      const caller = callers.get(request)!;
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      if (request.method !== 'POST') {
        return reply.status(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send requests with POST.' }, id: null });
      }
      const server = createMcpServer(catalogue, { ...caller, services: deps.services, request, reply });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      try {
        await server.connect(transport);
        const headers = new Headers();
        for (const name of FORWARDED_HEADERS) {
          const value = request.headers[name];
          if (typeof value === 'string') headers.set(name, value);
        }
        const response = await transport.handleRequest(new Request(`${deps.config.issuer}${MCP_PATH}`, { method: 'POST', headers }), { parsedBody: request.body });
        response.headers.forEach((value, name) => void reply.header(name, value));
        return reply.status(response.status).send(await response.text());
      } finally {
        await server.close();
      }
    },
  });
}

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerTokenOf } from '../api/bearer-token.ts';
import { insufficientScopeChallenge, loginChallenge, type InsufficientScopeError } from '../api/operation-scope.ts';
import type { AgentApiDeps } from '../api/agent/register-agent-api.ts';
import type { Actor } from '../domain/actor.ts';
import { assistantResourceUrls } from '../domain/assistant-scopes.ts';
import { AppError } from '../errors.ts';
import { renderMcpGuide } from './mcp-guide.ts';
import { buildCatalogue, createMcpServer } from './mcp-server.ts';
import { toolOperations } from './tool-operations.ts';

export const MCP_PATH = '/mcp';

// The headers the transport reads; the body reaches it already parsed by Fastify.
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

interface Caller {
  actor: Actor;
  signedIn: { user: NonNullable<Awaited<ReturnType<FastifyInstance['oidc']['verifyAssistantToken']>>>['user']; token: string; assistant: { clientId: string; clientName?: string | null; grantId: string; scopes: readonly string[] } };
}

export type McpDeps = AgentApiDeps;

/**
 * Sesame's MCP server at /mcp: Streamable HTTP, stateless (one MCP server per request, JSON
 * responses), authorized by Sesame's own OAuth access tokens for the resource {issuer}/mcp. A request
 * without a usable token gets 401 with the RFC 9728 metadata address, from which an MCP client
 * discovers Sesame as its authorization server.
 */
export async function mcpServer(app: FastifyInstance, deps: McpDeps): Promise<void> {
  const bodyLimit = app.initialConfig.bodyLimit ?? 1_048_576;
  const tools = toolOperations(deps.config, bodyLimit, deps.assistantTokenLifetimes);
  const catalogue = buildCatalogue(tools, renderMcpGuide({ tools, lifetimes: deps.assistantTokenLifetimes, bodyLimitBytes: bodyLimit }));
  const { resource, metadataUrl } = assistantResourceUrls(deps.config.issuer, 'mcp');
  const callers = new WeakMap<FastifyRequest, Caller>();
  const issuerOrigin = new URL(deps.config.issuer).origin;

  // Before the body is parsed: a page of another site is refused, and an unauthenticated request learns where to get a token, whatever it sent.
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    void reply.header('cache-control', 'no-store');
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== issuerOrigin) {
      // DNS rebinding: a page whose host name now resolves to this server must not reach the tools with a browser's help.
      return reply.status(403).send(new AppError('forbidden', `Requests to ${MCP_PATH} from a web page of another origin (${origin.slice(0, 200)}) are refused; only ${issuerOrigin} or a client that sends no Origin may call it.`).toBody());
    }
    const token = bearerTokenOf(request.headers.authorization);
    const verified = token ? await request.server.oidc.verifyAssistantToken(token, resource) : undefined;
    if (!token || !verified) {
      const description = token
        ? 'The access token is unknown, expired or revoked, or was not issued for this MCP server; sign in again through Sesame.'
        : `Send an OAuth access token for ${resource} as \`Authorization: Bearer <token>\`; ${metadataUrl} says where to get one.`;
      const challenge = loginChallenge(metadataUrl, token ? { invalidToken: 'The access token is unknown, expired or revoked, or was not issued for this MCP server' } : {});
      return reply.header('www-authenticate', challenge).status(401).send(new AppError('login_required', description).toBody());
    }
    const assistant = { clientId: verified.clientId, clientName: verified.clientName, grantId: verified.grantId, scopes: verified.scopes };
    callers.set(request, {
      actor: { subjectId: verified.user.subjectId, isAdmin: verified.user.isAdmin, surface: 'mcp', ip: request.ip, viaClientId: verified.clientId, viaClientName: verified.clientName, scopes: verified.scopes },
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
      let stepUp: InsufficientScopeError | undefined;
      const onInsufficientScope = (error: InsufficientScopeError) => {
        stepUp = error;
      };
      const server = createMcpServer(catalogue, { ...caller, services: deps.services, request, reply, onInsufficientScope });
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
        // A tool call outside the token's scopes: the JSON-RPC error travels in a 403 whose challenge names the scope to ask for.
        if (stepUp) return reply.status(403).header('www-authenticate', insufficientScopeChallenge(stepUp, metadataUrl)).send(await response.text());
        return reply.status(response.status).send(await response.text());
      } finally {
        await server.close();
      }
    },
  });
}

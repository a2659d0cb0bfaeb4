import { mayRunDuringEnrolment } from '../enrolment-session.ts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { assistantResourceUrls } from '../../domain/assistant-scopes.ts';
import type { AssistantTokenLifetimes } from '../../domain/limits.ts';
import type { ErrorCode } from '../../errors.ts';
import { instructionsResponse } from '../contracts/discovery.ts';
import { openApiDocumentOperation } from '../openapi.ts';
import { defineOperation, type AnyOperation } from '../operation.ts';
import { sharedOperations } from '../operations/index.ts';
import { restWords } from '../operation-words.ts';
import { PACKAGE_VERSION } from '../package-version.ts';
import { acceptJsonBodiesOnly, forbidCaching, registerOperations, type ApiDeps } from '../register-operations.ts';
import { renderAgentGuide } from './agent-guide.ts';
import { agentDisconnect, agentLogin, agentLogout, agentWhoAmI } from './auth-operations.ts';
import { createBearerAuth } from './bearer-auth.ts';

export const AGENT_API_PREFIX = '/api/agent';

/** Addresses come from OIDC_ISSUER only, never from request headers a client or proxy could forge. */
export function agentApiUrls(config: Pick<Config, 'issuer'>) {
  const baseUrl = `${config.issuer}${AGENT_API_PREFIX}`;
  return { baseUrl, openapiUrl: `${baseUrl}/openapi.json`, instructionsUrl: `${baseUrl}/instructions` };
}

export interface AgentApiDeps extends ApiDeps {
  /** What the guides tell an assistant about its tokens: the OIDC engine's own lifetimes. */
  assistantTokenLifetimes: AssistantTokenLifetimes;
}

export function agentOperations(config: Config, bodyLimitBytes: number, lifetimes: AssistantTokenLifetimes): AnyOperation[] {
  const urls = agentApiUrls(config);
  const words = restWords([agentLogin, agentLogout, agentWhoAmI, ...sharedOperations]);
  const instructions = {
    version: PACKAGE_VERSION,
    baseUrl: urls.baseUrl,
    openapiUrl: urls.openapiUrl,
    contentType: 'text/markdown' as const,
    prompt: renderAgentGuide({ issuer: config.issuer, baseUrl: urls.baseUrl, openapiUrl: urls.openapiUrl, bodyLimitBytes, lifetimes, words }),
  };

  const getInstructions = defineOperation({
    operationId: 'getInstructions',
    method: 'GET',
    path: '/instructions',
    tag: 'Discovery',
    summary: 'Operating guide for AI assistants',
    description: 'Start here: a Markdown guide (`prompt`) to this API, with the addresses of the API and of its OpenAPI document. No authentication.',
    access: 'public',
    response: {
      status: 200,
      description: 'The guide and where the API lives.',
      schema: instructionsResponse,
      example: { ...instructions, prompt: '# Sesame Agent API: operating guide\n\nYou are helping a person manage OpenID Connect ...' },
    },
    errors: [],
    async handle() {
      return instructions;
    },
  });

  const getOpenApiDocument = openApiDocumentOperation(
    {
      title: 'Sesame Agent API',
      version: PACKAGE_VERSION,
      description:
        'Manage OIDC projects, clients and members from an AI assistant or a script. Read the operating guide first: ' +
        `${urls.instructionsUrl}. Log in with POST /auth/login and send \`Authorization: Bearer <accessToken>\`.`,
      serverUrl: urls.baseUrl,
      infoExtensions: { 'x-agent-instructions': urls.instructionsUrl },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The `accessToken` from POST /auth/login, valid 86400 seconds or until logout; or an assistant\'s OAuth access token for this API, whose scopes bound what it may do ' +
            '(403 insufficient_scope with a WWW-Authenticate challenge naming the scope to authorize again with).',
        },
      },
      sessionSecurity: () => [{ bearerAuth: [] }],
      sessionErrors: (operation): ErrorCode[] => [
        'login_required',
        'insufficient_scope',
        ...(mayRunDuringEnrolment(operation, 'agent') ? [] : (['mfa_enrolment_required'] as const)),
        // An operation only a person's own session may call answers an Agent API token 403 browser_only (DESIGN.md section 14).
        ...(operation.onlyFrom ? (['browser_only'] as const) : []),
      ],
    },
    'Agent API',
    () => operations,
  );

  const operations: AnyOperation[] = [getInstructions, getOpenApiDocument, agentLogin, agentLogout, agentWhoAmI, agentDisconnect, ...sharedOperations];
  return operations;
}

/** The Agent API: bearer tokens, no CSRF, the shared operations. Mounted under AGENT_API_PREFIX only when enabled. */
export async function agentApi(api: FastifyInstance, deps: AgentApiDeps): Promise<void> {
  acceptJsonBodiesOnly(api);
  forbidCaching(api);
  registerOperations(api, agentOperations(deps.config, api.initialConfig.bodyLimit ?? 1_048_576, deps.assistantTokenLifetimes), createBearerAuth(deps.services, assistantResourceUrls(deps.config.issuer, 'agent')), deps.services);
}

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode as McpErrorCode,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AnyOperation } from '../api/operation.ts';
import { withinTokenScope } from '../api/operation-scope.ts';
import { PACKAGE_VERSION } from '../api/package-version.ts';
import { renderText } from '../domain/pointed-text.ts';
import { AppError } from '../errors.ts';
import { GUIDE_PROMPT_NAME, GUIDE_RESOURCE_URI } from './mcp-guide.ts';
import { callOperationTool, toolError, toolWords, type ToolCallContext } from './tool-call.ts';
import { operationInputSchema, type JsonSchema } from './tool-schema.ts';
import { toolAnnotations } from './tool-operations.ts';

export interface McpCatalogue {
  operations: AnyOperation[];
  inputSchemas: Map<string, JsonSchema>;
  guide: string;
}

/** Built once at start: the tools' schemas do not change while the server runs. */
export function buildCatalogue(operations: AnyOperation[], guide: string): McpCatalogue {
  return { operations, inputSchemas: new Map(operations.map((operation) => [operation.operationId, operationInputSchema(operation)])), guide };
}

/** One MCP server per request (the transport is stateless): it knows the caller and lists only the tools their token's scopes allow. */
export function createMcpServer(catalogue: McpCatalogue, context: ToolCallContext): Server {
  const server = new Server(
    { name: 'sesame', title: 'Sesame', version: PACKAGE_VERSION },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions: `Sesame manages OIDC projects, clients and members. Read the prompt ${GUIDE_PROMPT_NAME} (or the resource ${GUIDE_RESOURCE_URI}) before your first change.`,
    },
  );
  const allowed = () => catalogue.operations.filter((operation) => withinTokenScope(operation, context.actor));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: allowed().map((operation) => ({
      name: operation.operationId,
      title: operation.summary,
      description: `${operation.summary}. ${renderText(operation.description, toolWords)}`,
      inputSchema: catalogue.inputSchemas.get(operation.operationId) as { type: 'object' },
      annotations: toolAnnotations(operation),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const operation = catalogue.operations.find((candidate) => candidate.operationId === request.params.name);
    if (!operation) {
      return toolError(new AppError('not_found', `There is no tool named ${request.params.name}; list the tools to see those your access allows.`));
    }
    return callOperationTool(operation, request.params.arguments ?? {}, context);
  });

  const guidePrompt = { name: GUIDE_PROMPT_NAME, title: 'Sesame operating guide', description: 'How to manage Sesame projects, clients and members through these tools: the model, typical sequences, errors and limits.' };
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [guidePrompt] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== GUIDE_PROMPT_NAME) throw new McpError(McpErrorCode.InvalidParams, `Unknown prompt ${request.params.name}; the only prompt is ${GUIDE_PROMPT_NAME}.`);
    return { description: guidePrompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: catalogue.guide } }] };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: GUIDE_RESOURCE_URI, name: 'guide', title: guidePrompt.title, description: guidePrompt.description, mimeType: 'text/markdown' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== GUIDE_RESOURCE_URI) throw new McpError(McpErrorCode.InvalidParams, `Unknown resource ${request.params.uri}; the only resource is ${GUIDE_RESOURCE_URI}.`);
    return { contents: [{ uri: GUIDE_RESOURCE_URI, mimeType: 'text/markdown', text: catalogue.guide }] };
  });
  return server;
}

import { oneToPattern } from '../../src/api/contracts/common.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/app.ts';
import { renderMcpGuide } from '../../src/mcp/mcp-guide.ts';
import { ASSISTANT_TOKEN_LIFETIMES } from '../../src/oidc/token-lifetimes.ts';
import { buildCatalogue, createMcpServer } from '../../src/mcp/mcp-server.ts';
import { OPERATIONS_NOT_TOOLS, toolOperations } from '../../src/mcp/tool-operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

type Schema = Record<string, any>;

/** Replaces every $ref by what it points to, so schemas from two documents compare by content. */
function resolveRefs(value: unknown, lookup: (ref: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, lookup));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Schema;
  if (typeof object.$ref === 'string') {
    const { $ref, ...rest } = object;
    return { ...(resolveRefs(lookup($ref), lookup) as Schema), ...(resolveRefs(rest, lookup) as Schema) };
  }
  return Object.fromEntries(Object.entries(object).filter(([key]) => key !== '$defs').map(([key, inner]) => [key, resolveRefs(inner, lookup)]));
}


/** The flat input an operation of the Agent API's OpenAPI document takes: its parameters and body fields. */
function inputFromOpenApi(document: Schema, operation: Schema): { properties: Schema; required: string[] } {
  const lookup = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')];
  const properties: Schema = {};
  const required: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    // The Idempotency-Key header is the tool argument idempotencyKey, with the same rules.
    if (parameter.in === 'header') {
      expect(parameter.name).toBe('Idempotency-Key');
      properties.idempotencyKey = { ...parameter.schema, description: parameter.description };
      continue;
    }
    // A whole number a query string carries as text (`limit`) is an integer argument over MCP, within the same bounds.
    // Its text form's pattern is exactly 1 to the maximum the description names.
    const maximum = parameter.in === 'query' ? Number(/1-(\d+)/.exec(parameter.description ?? '')?.[1]) : Number.NaN;
    const schema = parameter.in === 'query' && parameter.schema.pattern === oneToPattern(maximum) ? { type: 'integer', minimum: 1, maximum } : parameter.schema;
    properties[parameter.name] = { ...schema, ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.required) required.push(parameter.name);
  }
  const body = resolveRefs(operation.requestBody?.content['application/json'].schema ?? {}, lookup) as Schema;
  Object.assign(properties, body.properties ?? {});
  required.push(...(body.required ?? []));
  return { properties: resolveRefs(properties, lookup) as Schema, required: required.sort() };
}

describe('MCP tools and Agent API operations do not drift apart', () => {
  let ctx: TestContext;
  let tools: { name: string; inputSchema: Schema }[];
  let document: Schema;

  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    document = (await ctx.app.inject({ method: 'GET', url: '/api/agent/openapi.json' })).json();
    // Listed as an administrator holding every scope: nothing is filtered out.
    const operations = toolOperations(ctx.config, BODY_LIMIT_BYTES, ASSISTANT_TOKEN_LIFETIMES);
    const catalogue = buildCatalogue(operations, renderMcpGuide({ tools: operations, lifetimes: ASSISTANT_TOKEN_LIFETIMES, bodyLimitBytes: BODY_LIMIT_BYTES }));
    const actor = { subjectId: 'admin', isAdmin: true, surface: 'mcp' as const, ip: null, viaClientId: 'cli_x', scopes: ['sesame:read', 'sesame:write', 'sesame:admin'] };
    const server = createMcpServer(catalogue, { actor, signedIn: { user: {} as never, token: '' }, services: ctx.services, request: {} as FastifyRequest, reply: {} as FastifyReply });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'drift', version: '1' });
    await client.connect(clientSide);
    tools = (await client.listTools()).tools as typeof tools;
    await client.close();
  });
  afterAll(async () => ctx?.close());

  it('every Agent API operation but login, logout, instructions, openapi and those only a person\'s own session may call is a tool, and no tool exists without an operation', () => {
    const operations = Object.values(document.paths as Record<string, Record<string, Schema>>).flatMap((methods) => Object.values(methods));
    const operationIds = operations.filter((operation) => operation['x-only-from'] === undefined).map((operation) => operation.operationId as string);
    expect(operationIds.length).toBeGreaterThan(15);
    expect(tools.map((tool) => tool.name).sort()).toEqual(operationIds.filter((id) => !OPERATIONS_NOT_TOOLS.has(id)).sort());
    // DESIGN.md section 14: the person-only operations and the administrators' operations on others' credentials.
    const onlyFrom = operations.filter((operation) => operation['x-only-from'] !== undefined).map((operation) => operation.operationId as string);
    expect(onlyFrom.sort()).toEqual(
      ['addPasskey', 'changeMyEmail', 'changePassword', 'confirmTotp', 'newRecoveryCodes', 'passkeyOptions', 'reauthenticate', 'removeFactor', 'removeMyIdentity', 'resetUserFactors', 'setUserPassword', 'startTotp'].sort(),
    );
  });

  it('each tool takes exactly its operation\'s path, query and body fields, with the same schemas', () => {
    for (const [, methods] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
      for (const operation of Object.values(methods)) {
        const tool = tools.find((candidate) => candidate.name === operation.operationId);
        if (!tool) continue;
        const expected = inputFromOpenApi(document, operation);
        // An assistant never handles a person's password: createUser's tool has no `password` argument.
        if (tool.name === 'createUser') {
          expect(expected.properties.password).toBeDefined();
          delete expected.properties.password;
        }
        const defs = (tool.inputSchema.$defs ?? {}) as Schema;
        const actual = resolveRefs(tool.inputSchema, (ref) => defs[ref.replace('#/$defs/', '')]) as Schema;
        expect(actual.type, tool.name).toBe('object');
        expect(actual.additionalProperties, tool.name).toBe(false);
        expect(actual.properties, tool.name).toEqual(expected.properties);
        expect([...(actual.required ?? [])].sort(), tool.name).toEqual(expected.required);
      }
    }
  });
});

import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentApi, AGENT_API_PREFIX } from '../../src/api/agent/register-agent-api.ts';
import { managementApi, MANAGEMENT_API_PREFIX } from '../../src/api/management/register-management-api.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { ASSISTANT_TOKEN_LIFETIMES } from '../../src/oidc/token-lifetimes.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createOpenApiChecker } from './helpers/openapi-checker.ts';

type OperationObject = {
  operationId: string;
  summary: string;
  description: string;
  security: unknown[];
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown; example?: unknown }> }>;
};
type Document = { openapi: string; info: Record<string, unknown>; paths: Record<string, Record<string, OperationObject>>; components: Record<string, Record<string, unknown>> };

const SURFACES = [
  { name: 'agent', prefix: AGENT_API_PREFIX },
  { name: 'management', prefix: MANAGEMENT_API_PREFIX },
] as const;

const toFastifyPath = (openApiPath: string) => openApiPath.replace(/\{([^}]+)\}/g, ':$1');

function documentedOperations(document: Document, prefix: string): string[] {
  return Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${prefix}${toFastifyPath(path)}`));
}

/** Full paths and methods from Fastify's printed route tree (each level indents four characters). */
function routesFromTree(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)(?:├── |└── )(\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim()).filter(Boolean)) routes.push(`${method} ${stack.join('')}`);
  }
  return routes;
}

describe.each(TEST_ENGINES)('OpenAPI documents on %s', (engine) => {
  let ctx: TestContext;
  const documents = {} as Record<(typeof SURFACES)[number]['name'], Document>;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    for (const surface of SURFACES) {
      const response = await ctx.app.inject({ method: 'GET', url: `${surface.prefix}/openapi.json` });
      expect(response.statusCode).toBe(200);
      documents[surface.name] = response.json();
    }
  });
  afterAll(() => ctx.close());

  it.each(SURFACES)('the $name document is valid OpenAPI 3.1', async ({ name }) => {
    const validator = new Validator();
    const result = await validator.validate(documents[name]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('registers exactly the documented routes (collected with onRoute while the API plugins register)', async () => {
    const collector: FastifyInstance = Fastify();
    const registered: string[] = [];
    collector.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`);
    });
    collector.decorate('rateLimits', ctx.app.rateLimits);
    const deps = { services: ctx.services, config: ctx.config };
    await collector.register(managementApi, { prefix: MANAGEMENT_API_PREFIX, ...deps, cookieKeys: ['a cookie key that is long enough for the test'] });
    await collector.register(agentApi, { prefix: AGENT_API_PREFIX, ...deps, assistantTokenLifetimes: ASSISTANT_TOKEN_LIFETIMES });
    await collector.ready();
    const documented = SURFACES.flatMap(({ name, prefix }) => documentedOperations(documents[name], prefix));
    expect(registered.sort()).toEqual(documented.sort());
    await collector.close();
  });

  it('serves every documented operation, and nothing undocumented, under both prefixes of the real app', () => {
    for (const { name, prefix } of SURFACES) {
      const documented = documentedOperations(documents[name], prefix);
      for (const entry of documented) {
        const [method, url] = entry.split(' ') as [string, string];
        expect(ctx.app.hasRoute({ method: method as 'GET', url }), entry).toBe(true);
      }
      const served = routesFromTree(ctx.app.printRoutes({ commonPrefix: false })).filter((r) => r.split(' ')[1]!.startsWith(`${prefix}/`));
      expect(served.sort()).toEqual(documented.sort());
    }
  });

  it.each(SURFACES)('every $name operation has an id, texts, security, examples and its error responses', ({ name }) => {
    const document = documents[name];
    const ids = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        expect(ids.has(operation.operationId), `${where} repeats ${operation.operationId}`).toBe(false);
        ids.add(operation.operationId);
        expect(operation.summary.length, where).toBeGreaterThan(5);
        expect(operation.description.length, where).toBeGreaterThan(20);
        expect(Array.isArray(operation.security), where).toBe(true);
        if (operation.requestBody) expect(operation.requestBody.content['application/json']?.example, `${where} request example`).toBeDefined();
        const statuses = Object.keys(operation.responses);
        const success = statuses.filter((s) => s.startsWith('2'));
        expect(success, where).toHaveLength(1);
        const successContent = operation.responses[success[0]!]!.content?.['application/json'];
        if (success[0] !== '204') expect(successContent?.example, `${where} response example`).toBeDefined();
        expect(statuses, where).toEqual(expect.arrayContaining(['500', '503']));
        if (method !== 'get') expect(statuses, where).toEqual(expect.arrayContaining(['400', '413', '415']));
        if (operation.security.length > 0 && !operation.security.some((s) => Object.keys(s as object).length === 0) && !/\/auth\/(login|passkey\/options|upstream\/\{name\}\/start)$/.test(where)) {
          expect(statuses, `${where} is signed in`).toContain('401');
        }
      }
    }
  });

  it.each(SURFACES)('every example in the $name document matches its schema', ({ name }) => {
    const checker = createOpenApiChecker(documents[name]);
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(documents[name].paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const media = [operation.requestBody?.content['application/json'], ...Object.values(operation.responses).map((r) => r.content?.['application/json'])];
        for (const entry of media) {
          if (entry?.example !== undefined) problems.push(...checker.validateSchema(entry.schema, entry.example).map((p) => `${method} ${path}: ${p}`));
        }
      }
    }
    const errorSchema = { $ref: '#/components/schemas/Error' };
    for (const code of ERROR_CODES) {
      const example = documents[name].components.examples?.[code] as { value: unknown } | undefined;
      expect(example, code).toBeDefined();
      problems.push(...checker.validateSchema(errorSchema, example!.value).map((p) => `${code}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('describes bearer auth on the agent side and cookie + CSRF on the management side', () => {
    const agent = documents.agent;
    expect(agent.info['x-agent-instructions']).toBe(`${ctx.config.issuer}/api/agent/instructions`);
    expect(agent.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(agent.paths['/projects']!.post!.security).toEqual([{ bearerAuth: [] }]);
    expect(agent.paths['/instructions']!.get!.security).toEqual([]);

    const management = documents.management;
    expect(management.components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sesame_console' },
      csrfHeader: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
    });
    expect(management.paths['/projects']!.get!.security).toEqual([{ sessionCookie: [] }]);
    expect(management.paths['/projects']!.post!.security).toEqual([{ sessionCookie: [], csrfHeader: [] }]);
    expect(Object.keys(management.paths['/projects']!.post!.responses)).toContain('403');
    expect(management.paths['/instructions']).toBeUndefined();
    expect(agent.paths['/auth/context']).toBeUndefined();
  });

  it('docs/agent-api.md covers every error code and every Agent API path', () => {
    const guide = readFileSync(new URL('../../docs/agent-api.md', import.meta.url), 'utf8');
    for (const code of ERROR_CODES) expect(guide, code).toContain(`\`${code}\``);
    // Paths appear in the guide with shell variables ($PROJECT) for their parameters.
    for (const path of Object.keys(documents.agent.paths)) {
      const literal = path.replace(/\{[^}]+\}/g, '').replace(/\/+/g, '/').replace(/\/$/, '');
      const words = literal.split('/').filter(Boolean);
      const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('/(?:[^\\s/]+/)?'));
      expect(guide, path).toMatch(pattern);
    }
  });
});

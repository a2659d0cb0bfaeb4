import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ApiResponse, Method } from './api-clients.ts';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Doc = { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components: unknown };

const DOC_ID = 'urn:sesame:openapi';

const pointAtDocument = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(pointAtDocument);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' && inner.startsWith('#/') ? `${DOC_ID}${inner}` : pointAtDocument(inner)]),
  );
};

/**
 * Checks responses against an OpenAPI 3.1 document with ajv's draft 2020-12 validator: the status
 * must be documented for the operation, and the body must match that response's schema.
 */
export function createOpenApiChecker(document: unknown) {
  const doc = document as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const routes = Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      template,
      method: method.toUpperCase(),
      operation,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literalLength: template.replace(/\{[^}]+\}/g, '').length,
    })),
  );
  const validators = new Map<string, ValidateFunction>();

  function operationFor(method: Method, path: string) {
    const bare = path.split('?')[0]!;
    return routes.filter((r) => r.method === method && r.pattern.test(bare)).sort((a, b) => b.literalLength - a.literalLength)[0];
  }

  return {
    operationFor,
    validateSchema(schema: unknown, value: unknown): string[] {
      const validate = ajv.compile(pointAtDocument(schema) as object);
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    },
    /** The problems of one response; empty when it is documented and matches. */
    check(method: Method, path: string, response: ApiResponse): string[] {
      const route = operationFor(method, path);
      if (!route) return [`${method} ${path}: no documented operation`];
      const documented = route.operation.responses[String(response.status)];
      if (!documented) return [`${route.operation.operationId}: status ${response.status} is not documented (${response.text.slice(0, 200)})`];
      const schema = documented.content?.['application/json']?.schema;
      if (!schema) return response.text === '' ? [] : [`${route.operation.operationId} ${response.status}: a body was sent where none is documented`];
      const key = `${route.method} ${route.template} ${response.status}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = ajv.compile(pointAtDocument(schema) as object);
        validators.set(key, validate);
      }
      if (validate(response.body)) return [];
      return (validate.errors ?? []).map((e) => `${route.operation.operationId} ${response.status}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    },
  };
}

export type OpenApiChecker = ReturnType<typeof createOpenApiChecker>;

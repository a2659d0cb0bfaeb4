import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { errorBody } from './contracts/common.ts';
import { openApiDocumentResponse } from './contracts/discovery.ts';
import { ERROR_ADVICE } from './contracts/error-advice.ts';
import { IDEMPOTENCY_HEADER, idempotencyKeyHeader, replayedField } from './idempotency-key.ts';
import { defineOperation, isCreating, isStateChanging, type AnyOperation } from './operation.ts';
import { restWords, toOpenApiPath } from './operation-words.ts';
import { renderText, type NameOperation } from '../domain/pointed-text.ts';

type JsonSchema = Record<string, unknown>;
type SecurityRequirement = Record<string, string[]>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [extension: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  [field: string]: unknown;
}

/** What differs between the Agent API's document and the Management API's. */
export interface DocumentSurface {
  title: string;
  description: string;
  version: string;
  serverUrl: string;
  infoExtensions: Record<string, unknown>;
  securitySchemes: Record<string, JsonSchema>;
  /** The requirement of a signed-in operation that names none of its own. */
  sessionSecurity(operation: AnyOperation): SecurityRequirement[];
  /** Errors the surface's authentication adds to a signed-in operation. */
  sessionErrors(operation: AnyOperation): ErrorCode[];
}

export const TAG_DESCRIPTIONS: Record<string, string> = {
  Discovery: 'How to use this API.',
  Authentication: 'Signing in and out.',
  Projects: 'Projects group OIDC clients and their members.',
  Members: 'Who may do what in a project: owner, maintainer, viewer.',
  Clients: 'OIDC clients (relying parties), their configuration and secrets.',
  Audit: 'The record of every change.',
  Users: 'Finding users to add to projects.',
  Administration: 'User accounts; administrators only.',
};

const GENERIC_ERRORS: ErrorCode[] = ['internal_error', 'service_unavailable'];
const RETRY_AFTER_CODES = new Set<ErrorCode>(['rate_limited', 'service_unavailable', 'directory_unavailable']);

export { toOpenApiPath } from './operation-words.ts';

/** Converts zod schemas to OpenAPI 3.1 schemas, moving every schema with a registered `id` to `components.schemas`. */
function createSchemaConverter() {
  const components: Record<string, JsonSchema> = {};

  const rewriteRefs = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewriteRefs);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        key === '$ref' && typeof inner === 'string' ? [key, inner.replace(/^#\/\$defs\//, '#/components/schemas/')] : [key, rewriteRefs(inner)],
      ),
    );
  };

  function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const generated = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      override: ({ jsonSchema }) => {
        // zod adds its own date-time regex next to `format`; the format alone says it, readably.
        if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
        // Integers get the safe-integer bounds by default; they say nothing to a reader.
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      },
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = generated;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      const rewritten = rewriteRefs(definition) as JsonSchema;
      const existing = components[id];
      if (existing && JSON.stringify(existing) !== JSON.stringify(rewritten)) {
        throw new Error(`Schema ${id} has two different shapes (request and response?); give one of them another id.`);
      }
      components[id] = rewritten;
    }
    return rewriteRefs(rest) as JsonSchema;
  }

  return { convert, components };
}

function exampleErrorBody(code: ErrorCode, words: NameOperation) {
  const advice = ERROR_ADVICE[code];
  const body: Record<string, unknown> = { error: code, error_description: `${advice.meaning} ${renderText(advice.action, words)}` };
  if (code === 'invalid_request') body.field_errors = { expectedProjectVersion: 'must be a number' };
  if (code === 'invalid_client_metadata') body.field_errors = { 'redirectUris.0': 'must use https (http is allowed only for localhost, 127.0.0.1 and [::1])' };
  return body;
}

function errorCodesOf(operation: AnyOperation, surface: DocumentSurface): ErrorCode[] {
  const codes = new Set<ErrorCode>(operation.errors);
  if (isCreating(operation)) codes.add('idempotency_key_reused');
  if (operation.access === 'session') for (const code of surface.sessionErrors(operation)) codes.add(code);
  // Path parameters too: a malformed or unstorable one is refused with 400 before the operation runs.
  if (operation.params || operation.query || operation.body || isStateChanging(operation.method)) codes.add('invalid_request');
  if (isStateChanging(operation.method)) {
    codes.add('request_too_large');
    codes.add('unsupported_media_type');
  }
  for (const code of GENERIC_ERRORS) codes.add(code);
  return [...codes];
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Body too large',
  415: 'Body is not JSON',
  429: 'Too many attempts',
  500: 'Server error',
  503: 'Temporarily unavailable',
};

/** One example per error code, shared by every operation's error responses. */
function errorExamples(words: NameOperation): Record<string, unknown> {
  return Object.fromEntries(
    (Object.keys(ERROR_ADVICE) as ErrorCode[]).map((code) => [
      code,
      { summary: ERROR_ADVICE[code].meaning, description: renderText(ERROR_ADVICE[code].action, words), value: exampleErrorBody(code, words) },
    ]),
  );
}

function errorResponses(codes: ErrorCode[], errorRef: JsonSchema): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const responses: Record<string, unknown> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${statusCodes.map((code) => `\`${code}\``).join(', ')} (each example says what it means and what to do).`,
      ...(statusCodes.some((code) => RETRY_AFTER_CODES.has(code))
        ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } } }
        : {}),
      content: {
        'application/json': {
          schema: { allOf: [errorRef], properties: { error: { enum: statusCodes } } },
          examples: Object.fromEntries(statusCodes.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
        },
      },
    };
  }
  return responses;
}

function parametersOf(operation: AnyOperation, convert: (schema: z.ZodType, io: 'input' | 'output') => JsonSchema) {
  const parameters: unknown[] = [];
  for (const [location, schema] of [['path', operation.params], ['query', operation.query]] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries((schema as z.ZodObject).shape as Record<string, z.ZodType>)) {
      const { description, ...fieldSchema } = convert(field, 'input');
      parameters.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success,
        ...(typeof description === 'string' ? { description } : {}),
        schema: fieldSchema,
      });
    }
  }
  if (isCreating(operation)) {
    const { description, ...headerSchema } = convert(idempotencyKeyHeader, 'input');
    parameters.push({ name: IDEMPOTENCY_HEADER, in: 'header', required: false, description, schema: headerSchema });
  }
  return parameters;
}

/** The OpenAPI 3.1 document of one surface, generated from the same operations and zod schemas that serve requests. */
export function buildOpenApiDocument(operations: readonly AnyOperation[], surface: DocumentSurface): OpenApiDocument {
  const { convert, components } = createSchemaConverter();
  const errorRef = convert(errorBody, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const words = restWords(operations);

  for (const operation of operations) {
    tags.add(operation.tag);
    const { response } = operation;
    // A creating POST's answer may be its first answer given again (Idempotency-Key): then it says so.
    const responseSchema = response.schema && isCreating(operation) ? (response.schema as z.ZodObject).extend({ replayed: replayedField }) : response.schema;
    const parameters = parametersOf(operation, convert);
    const entry = {
      operationId: operation.operationId,
      summary: operation.summary,
      description: renderText(operation.description, words),
      tags: [operation.tag],
      // Machine-readable for clients: who alone may call it (DESIGN.md section 14); such operations are no MCP tools.
      ...(operation.onlyFrom ? { 'x-only-from': operation.onlyFrom } : {}),
      security: operation.security ?? (operation.access === 'session' ? surface.sessionSecurity(operation) : []),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(operation.body
        ? {
            requestBody: {
              required: !operation.body.safeParse(undefined).success,
              content: {
                'application/json': { schema: convert(operation.body, 'input'), ...(operation.bodyExample !== undefined ? { example: operation.bodyExample } : {}) },
              },
            },
          }
        : {}),
      responses: {
        [String(response.status)]: {
          description: response.description,
          ...(responseSchema
            ? { content: { 'application/json': { schema: convert(responseSchema, 'output'), ...(response.example !== undefined ? { example: response.example } : {}) } } }
            : {}),
        },
        ...errorResponses(errorCodesOf(operation, surface), errorRef),
      },
    };
    const path = toOpenApiPath(operation.path);
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: entry };
  }

  return {
    openapi: '3.1.0',
    info: { title: surface.title, version: surface.version, description: surface.description, ...surface.infoExtensions },
    servers: [{ url: surface.serverUrl }],
    tags: [...tags].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: { schemas: components, examples: errorExamples(words), securitySchemes: surface.securitySchemes },
  };
}

/**
 * `GET /openapi.json` of a surface: built on first request from the surface's own operations
 * (including itself), then served as it is.
 */
export function openApiDocumentOperation(surface: DocumentSurface, apiName: string, operations: () => readonly AnyOperation[]): AnyOperation {
  let document: OpenApiDocument | undefined;
  return defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Discovery',
    summary: 'This OpenAPI 3.1 document',
    description: `The machine-readable contract of the ${apiName}, generated from the schemas that validate requests. No authentication.`,
    access: 'public',
    response: {
      status: 200,
      description: 'The OpenAPI 3.1 document.',
      schema: openApiDocumentResponse,
      example: { openapi: '3.1.0', info: { title: surface.title, version: surface.version }, paths: {} },
    },
    errors: [],
    async handle() {
      document ??= buildOpenApiDocument(operations(), surface);
      return document;
    },
  });
}

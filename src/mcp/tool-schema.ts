import { z } from 'zod';
import { IDEMPOTENCY_ARGUMENT, idempotencyKeyHeader } from '../api/idempotency-key.ts';
import { isCreating, type AnyOperation } from '../api/operation.ts';
import { partSchema, REQUEST_PARTS, type RequestPart } from '../api/operation-pipeline.ts';

export type JsonSchema = Record<string, unknown>;

/** zod 4 -> JSON Schema for what a caller sends, with the same tidying as the OpenAPI documents. */
export function requestPartSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as JsonSchema;
}

/** Which argument names belong to which part of the request (never the body fields the tool does not take, `notToolArguments`). */
export function argumentParts(operation: AnyOperation): Map<string, RequestPart> {
  const parts = new Map<string, RequestPart>();
  for (const part of REQUEST_PARTS) {
    const schema = partSchema(operation, part, 'json');
    if (!schema) continue;
    const properties = (requestPartSchema(schema).properties ?? {}) as JsonSchema;
    for (const name of Object.keys(properties)) {
      if (part === 'body' && operation.notToolArguments?.includes(name)) continue;
      if (parts.has(name)) throw new Error(`${operation.operationId}: the argument ${name} is in both ${parts.get(name)} and ${part}`);
      parts.set(name, part);
    }
  }
  return parts;
}

/**
 * A tool's input schema: one flat object with the path parameters, the query parameters and the
 * body fields of the operation, each as its request contract says (a number a query string carries as text,
 * like `limit`, is an integer here), and for a creating operation the optional
 * `idempotencyKey` (the REST Idempotency-Key header). A name in two parts would be
 * ambiguous and fails at start.
 */
export function operationInputSchema(operation: AnyOperation): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  let defs: JsonSchema = {};
  argumentParts(operation);
  for (const part of REQUEST_PARTS) {
    const schema = partSchema(operation, part, 'json');
    if (!schema) continue;
    const { properties: partProperties, required: partRequired, $defs } = requestPartSchema(schema) as { properties?: JsonSchema; required?: string[]; $defs?: JsonSchema };
    const omitted = part === 'body' ? (operation.notToolArguments ?? []) : [];
    Object.assign(properties, Object.fromEntries(Object.entries(partProperties ?? {}).filter(([name]) => !omitted.includes(name))));
    required.push(...(partRequired ?? []).filter((name) => !omitted.includes(name)));
    defs = { ...defs, ...($defs ?? {}) };
  }
  // The Idempotency-Key header of a creating operation, as an argument with the same rules and meaning.
  if (isCreating(operation)) {
    const { $schema: _dialect, ...keySchema } = requestPartSchema(idempotencyKeyHeader);
    properties[IDEMPOTENCY_ARGUMENT] = keySchema;
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

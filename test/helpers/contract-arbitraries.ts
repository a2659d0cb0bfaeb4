import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { z } from 'zod';

/** The JSON Schema keywords zod's converter produces for Sesame's request contracts. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
}

/** A request part's contract as JSON Schema: zod's own conversion of the schema the server validates with (input side). */
export function contractSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

// The oracle that says whether a generated value breaks the documented contract. `format` is an
// annotation in JSON Schema 2020-12 (and a URI grammar is the domain rules' business), so it is not asserted.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

export function conformsTo(schema: JsonSchema, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema as object);
    validators.set(key, validate);
  }
  return validate(value) as boolean;
}

/** Lone surrogates (which no URL or header can carry) replaced by U+FFFD, as String#toWellFormed does. */
export const wellFormed = (text: string) => text.replace(/\p{Cs}/gu, '\uFFFD');

/** Text that has broken parsers, databases and renderers: direction overrides, joiners, NUL, lone surrogates, markup, injections. */
export const STRANGE_TEXT = [
  '',
  ' ',
  '\t\n\r',
  '\u202Eexe.txt',
  'a\u200Bb\u200Dc',
  '\uFEFFbom',
  'Ω≈ç√∫˜µ≤≥÷',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301',
  'ﷺ𒐫',
  '𝕊𝕖𝕤𝕒𝕞𝕖',
  'Z̴̡̛a̷l̸g̶o̵',
  '\u0000',
  'nul\u0000inside',
  '\uD800',
  'tail\uDFFF',
  '\u2028\u2029',
  'a\r\nSet-Cookie: x=y',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE users; --",
  '" OR "1"="1',
  '../../../etc/passwd',
  '%00%2e%2e%2f',
  '%s%n%x',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e999',
];

const STRANGE_URIS = [
  'https://rp.example.com/callback',
  'http://localhost/cb',
  'http://127.0.0.1:8080/cb',
  'http://[::1]/cb',
  'com.example.app:/callback',
  'https://rp.example.com/cb#fragment',
  'https://user:pass@rp.example.com/cb',
  'http://rp.example.com/cb',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  '//rp.example.com/cb',
  '/relative/cb',
  'https://例え.テスト/パス?q=ü',
  'https://rp.example.com/a b',
  'https://rp.example.com/%zz',
  'https://rp.example.com:99999/cb',
  'https://',
  'HTTPS://RP.EXAMPLE.COM/CB',
  `https://rp.example.com/${'a'.repeat(3000)}`,
];

function textOfLength(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const shortMax = Math.min(maxLength, 48);
  // JSON Schema counts code points, JavaScript UTF-16 units: pad by the one, cut by the other.
  const pad = (s: string) => `${s}${'x'.repeat(Math.max(0, minLength - [...s].length))}`.slice(0, maxLength);
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: shortMax }) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: shortMax }) },
      { weight: 3, arbitrary: fc.constantFrom(...STRANGE_TEXT) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: shortMax }) },
      // Long text up to the limit, in characters of every width.
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x', 'é', '字', '😀', '\u0301', ' '), fc.integer({ min: 0, max: maxLength })).map(([c, n]) => c.repeat(n)) },
    )
    .map(pad);
}

function integerIn(min: number, max: number): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.max(min, 1), max: Math.min(max, 12) }).filter((n) => n >= min && n <= max) },
    { weight: 2, arbitrary: fc.constantFrom(min, max, Math.min(max, min + 1)) },
    { weight: 2, arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }) },
    { weight: 1, arbitrary: fc.maxSafeInteger().filter((n) => n >= min && n <= max) },
  );
}

export const typesOf = (schema: JsonSchema): string[] => (schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]);

/**
 * Values the contract accepts, biased towards the strange: unusual Unicode, text up to the limits,
 * boundary numbers, odd URIs, empty and full lists. The server may still refuse them (domain rules),
 * but never with a 5xx.
 */
export function conforming(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(conforming));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue();
  if (types.length > 1) return fc.oneof(...types.map((type) => conforming({ ...schema, type })));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerIn(schema.minimum ?? Number.MIN_SAFE_INTEGER, schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e12, max: schema.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true });
    case 'string': {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      const text = textOfLength(schema.minLength ?? 0, schema.maxLength ?? 4000);
      if (schema.format === 'uri') {
        const uri = fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom(...STRANGE_URIS));
        return fc.oneof(uri.filter((u) => u.length <= (schema.maxLength ?? Infinity)), text);
      }
      return text;
    }
    case 'array': {
      const item = schema.items ? conforming(schema.items) : fc.jsonValue();
      const minLength = schema.minItems ?? 0;
      const maxLength = schema.maxItems ?? 30;
      return fc.oneof({ weight: 4, arbitrary: fc.array(item, { minLength, maxLength: Math.min(maxLength, Math.max(minLength, 4)) }) }, { weight: 1, arbitrary: fc.array(item, { minLength, maxLength }) });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, conforming(inner)]));
      const record = fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
      if (schema.additionalProperties === false) return record;
      // Where unknown keys are allowed (query strings), send some.
      return fc.tuple(record, fc.dictionary(fc.constantFrom('extra', 'x', '_', 'limit[]', 'a.b', '__proto__', ''), textOfLength(0, 20), { maxKeys: 2 })).map(([known, extra]) => ({ ...extra, ...known }));
    }
    default:
      throw new Error(`conforming: no generator for JSON Schema type ${String(types[0])}`);
  }
}

const OTHER_JSON_TYPES: unknown[] = [null, true, false, 0, 1, -1, 1.5, 1e308, '', 'text', '5', 'true', 'null', [], {}, ['a'], [1, 2], { a: 1 }, [[]]];

/** An object with an own `__proto__` key (an object literal would set the prototype instead). */
const withOwnKey = (object: Record<string, unknown>, key: string, value: unknown) => {
  const copy = { ...object };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
};

function violationsOf(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const candidates: fc.Arbitrary<unknown>[] = [fc.constantFrom(...OTHER_JSON_TYPES)];
  if (schema.enum) {
    const texts = schema.enum.filter((v): v is string => typeof v === 'string');
    candidates.push(fc.constantFrom(...texts.flatMap((v) => [v.toUpperCase(), ` ${v}`, `${v}\u0000`, v.slice(0, -1), `${v}s`])), fc.string({ maxLength: 12 }));
  }
  const types = typesOf(schema);
  if (types.includes('string')) {
    if (schema.maxLength !== undefined) candidates.push(fc.integer({ min: schema.maxLength + 1, max: schema.maxLength + 200 }).chain((n) => fc.constantFrom('x', '😀', '字').map((c) => c.repeat(n))));
    if (schema.minLength) candidates.push(fc.constant(''), fc.string({ maxLength: schema.minLength - 1 }));
    if (schema.pattern) candidates.push(fc.constantFrom('', ' 5', '5 ', '0', '-1', '1e3', '0x10', '01', '1.0', '１２', '9'.repeat(30), 'yesterday', '2026-13-45T25:61:61Z'), fc.string({ maxLength: 30 }));
  }
  if (types.includes('integer') || types.includes('number')) {
    const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
    const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
    if (types.includes('integer')) candidates.push(fc.constantFrom(min + 0.5, 1.5, 0.1, 2 ** 53 + 2, 1e21, -1e21));
    candidates.push(fc.constantFrom(min - 1, min - 1000, max + 1, max * 2 + 2, 1e308, -1e308));
  }
  if (types.includes('array')) {
    if (schema.items) candidates.push(fc.tuple(fc.array(conforming(schema.items), { maxLength: 3 }), violating(schema.items), fc.nat(3)).map(([items, bad, at]) => items.toSpliced(Math.min(at, items.length), 0, bad)));
    if (schema.maxItems !== undefined) candidates.push(fc.array(schema.items ? conforming(schema.items) : fc.jsonValue(), { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 5 }));
    if (schema.minItems) candidates.push(fc.constant([]));
  }
  if (types.includes('object') && schema.properties) {
    const base = conforming(schema) as fc.Arbitrary<Record<string, unknown>>;
    const keys = Object.keys(schema.properties);
    const required = schema.required ?? [];
    if (required.length > 0) candidates.push(fc.tuple(base, fc.constantFrom(...required)).map(([value, key]) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key))));
    if (schema.additionalProperties === false) {
      const unknownKey = fc.oneof(fc.constantFrom('extra', 'isAdmin', 'id', 'version', 'clientSecret', 'projectId', '__proto__', 'constructor', '', ' ', keys[0]!.toUpperCase(), `${keys[0]!} `), fc.string({ maxLength: 10 }));
      candidates.push(fc.tuple(base, unknownKey, fc.jsonValue()).filter(([, key]) => !keys.includes(key)).map(([value, key, extra]) => withOwnKey(value, key, extra)));
    }
    if (keys.length > 0) {
      candidates.push(
        fc
          .constantFrom(...keys)
          .chain((key) => fc.tuple(base, fc.constant(key), violating(schema.properties![key]!)))
          .map(([value, key, bad]) => ({ ...value, [key]: bad })),
      );
    }
  }
  return candidates;
}

/** Values the contract refuses: wrong JSON types, out of range, too long or short, missing, unknown or broken fields, at any depth. */
export function violating(schema: JsonSchema): fc.Arbitrary<unknown> {
  const options = schema.anyOf ? [fc.constantFrom(...OTHER_JSON_TYPES), fc.string({ maxLength: 30 }), ...schema.anyOf.flatMap(violationsOf)] : violationsOf(schema);
  return fc.oneof(...options).filter((value) => !conformsTo(schema, value));
}

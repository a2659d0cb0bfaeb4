import type { z } from 'zod';
import { UNSTORABLE_TEXT } from '../domain/text-rules.ts';
import { AppError } from '../errors.ts';
import { toFieldErrors } from './contracts/field-errors.ts';

/** Where the input came from: a part of an HTTP request, or an MCP tool's arguments. */
export type Location = 'body' | 'query' | 'path' | 'arguments';

const LOCATION_TEXT: Record<Location, string> = { body: 'request body', query: 'query string', path: 'path', arguments: 'arguments' };

interface Visit {
  value: unknown;
  key: string | null;
  parent: Visit | null;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | null = visit; at !== null && at.key !== null; at = at.parent) keys.unshift(at.key);
  return keys.join('.');
}

// Iterative, and a path is built only for a hit: a 64 KiB body can nest thousands of levels deep,
// which recursion (or copying the path at every level) would turn into a stack overflow, a 500.
function unstorableTextPaths(input: unknown): string[] {
  const found: string[] = [];
  const pending: Visit[] = [{ value: input, key: null, parent: null }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (UNSTORABLE_TEXT.test(value)) found.push(pathOf(visit));
    } else if (value !== null && typeof value === 'object') {
      const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index -= 1) pending.push({ value: entries[index]![1], key: entries[index]![0], parent: visit });
    }
  }
  return found;
}

/** Parses one part of a request with its schema; any problem is a 400 invalid_request naming the fields at fault. */
export function parseRequestPart<S extends z.ZodType>(schema: S, input: unknown, location: Location): z.output<S> {
  const unstorable = unstorableTextPaths(input);
  if (unstorable.length > 0) {
    throw new AppError('invalid_request', `Some text in the ${LOCATION_TEXT[location]} contains a NUL character or an unpaired surrogate; send well-formed Unicode text.`, {
      fieldErrors: Object.fromEntries(unstorable.map((field) => [field, 'must be well-formed Unicode text without NUL characters'])),
    });
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { fieldErrors, wholeInput } = toFieldErrors(result.error.issues, input);
  const where = LOCATION_TEXT[location];
  if (location === 'body' && (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new AppError('invalid_request', 'The request body must be a JSON object; see the operation\'s schema in the OpenAPI document.');
  }
  const summary = wholeInput.length > 0 ? `The ${where} is invalid: ${wholeInput.join('; ')}.` : `Some fields of the ${where} are invalid; see field_errors, fix them and send again.`;
  // A well-formed body that breaks only a contract's client rules (params.error) is invalid client metadata.
  const onlyClientRules = result.error.issues.every((issue) => issue.code === 'custom' && issue.params?.error === 'invalid_client_metadata');
  throw new AppError(onlyClientRules ? 'invalid_client_metadata' : 'invalid_request', summary, { fieldErrors });
}

/** Operations without a body accept none, or an empty JSON object. */
export function refuseUnexpectedBody(input: unknown): void {
  if (input === undefined || input === null) return;
  if (typeof input === 'object' && !Array.isArray(input) && Object.keys(input).length === 0) return;
  throw new AppError('invalid_request', 'This operation takes no request body; send none.');
}

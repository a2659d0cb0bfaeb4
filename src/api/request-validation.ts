import type { z } from 'zod';
import { UNSTORABLE_TEXT } from '../domain/text-rules.ts';
import { AppError } from '../errors.ts';
import { zodFieldErrors } from '../zod-field-errors.ts';

type Location = 'body' | 'query' | 'path';

const LOCATION_TEXT: Record<Location, string> = { body: 'request body', query: 'query string', path: 'path' };

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) return 'is required';
      return `must be ${article(issue.expected === 'int' ? 'integer' : issue.expected)}`;
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`}`;
    case 'too_small':
      if (issue.origin === 'string') return `must be at least ${String(issue.minimum)} characters`;
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} items`;
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === 'array') return `must have at most ${String(issue.maximum)} items`;
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return issue.message.startsWith('Invalid') ? `must be a valid ${issue.format}` : issue.message;
    default:
      return issue.message;
  }
}

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
  // Keyed by field path (`redirectUris.0`); problems with the whole input go to the description.
  const { fieldErrors, wholeInput } = zodFieldErrors(result.error.issues, { describe: (issue) => describeIssue(issue, input), unknownField: 'is not a known field; remove it' });
  const where = LOCATION_TEXT[location];
  if (location === 'body' && (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input))) {
    throw new AppError('invalid_request', 'The request body must be a JSON object; see the operation\'s schema in the OpenAPI document.');
  }
  const summary = wholeInput.length > 0 ? `The ${where} is invalid: ${wholeInput.join('; ')}.` : `Some fields of the ${where} are invalid; see field_errors, fix them and send again.`;
  throw new AppError('invalid_request', summary, { fieldErrors });
}

/** Operations without a body accept none, or an empty JSON object. */
export function refuseUnexpectedBody(input: unknown): void {
  if (input === undefined || input === null) return;
  if (typeof input === 'object' && !Array.isArray(input) && Object.keys(input).length === 0) return;
  throw new AppError('invalid_request', 'This operation takes no request body; send none.');
}

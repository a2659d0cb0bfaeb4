import type { z } from 'zod';

// The one translation of zod's issues into `field_errors`, for the APIs' request parts and for the
// clients file of the first-deployment import (which validates with the registration contract).

export interface FieldErrorWording {
  /** The `field_errors` key of a path; the APIs join with dots (`redirectUris.0`). */
  key?: (path: readonly PropertyKey[]) => string;
  /** What an issue says about its field; zod's own message unless told otherwise. */
  describe?: (issue: z.core.$ZodIssue) => string;
  /** What an unknown key is told. */
  unknownField?: string;
}

export const dottedPath = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** zod's issues as field errors (every problem of a field, in one message), and the problems of the whole input apart. */
export function zodFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  { key = dottedPath, describe = (issue) => issue.message, unknownField = 'is not a known field' }: FieldErrorWording = {},
  prefix: readonly PropertyKey[] = [],
): { fieldErrors: Record<string, string>; wholeInput: string[] } {
  const fieldErrors: Record<string, string> = {};
  const wholeInput: string[] = [];
  const add = (path: readonly PropertyKey[], message: string) => {
    const field = key(path);
    if (field === '') wholeInput.push(message);
    // Own keys only: a field named `constructor` must not meet Object.prototype's.
    else if (!Object.hasOwn(fieldErrors, field)) fieldErrors[field] = message;
    else if (!fieldErrors[field]!.split('; ').includes(message)) fieldErrors[field] = `${fieldErrors[field]}; ${message}`;
  };
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const unknown of issue.keys) add([...path, unknown], unknownField);
    } else {
      add(path, describe(issue));
    }
  }
  return { fieldErrors, wholeInput };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** An issue in the APIs' words: what the field must be, judged against the input that was sent. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
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

/** The APIs' field errors: keyed by field path (`redirectUris.0`), problems with the whole input apart. */
export const toFieldErrors = (issues: readonly z.core.$ZodIssue[], input: unknown) =>
  zodFieldErrors(issues, { describe: (issue) => describeIssue(issue, input), unknownField: 'is not a known field; remove it' });

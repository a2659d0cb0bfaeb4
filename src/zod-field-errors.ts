import type { z } from 'zod';

// The one translation of zod's issues into `field_errors`, for the APIs' request parts and for the
// clients file of the first-deployment import.

export interface FieldErrorWording {
  /** The `field_errors` key of a path; the APIs join with dots (`redirectUris.0`). */
  key?: (path: readonly PropertyKey[]) => string;
  /** What an issue says about its field; zod's own message unless told otherwise. */
  describe?: (issue: z.core.$ZodIssue) => string;
  /** What an unknown key is told. */
  unknownField?: string;
}

export const dottedPath = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** zod's issues as field errors (the first problem per field), and the problems of the whole input apart. */
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
    else fieldErrors[field] ??= message;
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

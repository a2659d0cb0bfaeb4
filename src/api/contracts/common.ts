import { z } from 'zod';
import { invisibleFormattingProblem } from '../../domain/text-rules.ts';
import { ERROR_CODES } from '../../errors.ts';

/** Domain objects carry epoch milliseconds; JSON carries ISO-8601 UTC text. */
export const timestamp = z.iso.datetime().meta({ description: 'ISO-8601 time in UTC', examples: ['2026-11-21T09:30:00.000Z'] });

export const toIso = (epochMs: number): string => new Date(epochMs).toISOString();
export const toIsoOrNull = (epochMs: number | null): string | null => (epochMs === null ? null : toIso(epochMs));

/**
 * Names and descriptions: text that other people, and their assistants, are shown. The domain's text
 * rule refuses hidden formatting (bidirectional controls, zero-width characters) here, on both APIs.
 */
export const readableText = () =>
  z.string().superRefine((value, context) => {
    const problem = invisibleFormattingProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/**
 * Query fields that are numbers sent as text, with their value form: what the field is when the arguments are
 * JSON values rather than a query string (an MCP tool's `limit` is an integer, never "50").
 */
export const queryValueForm = new WeakMap<z.ZodType, z.ZodType>();

function withValueForm<S extends z.ZodType>(textForm: S, valueForm: z.ZodType): S {
  queryValueForm.set(textForm, valueForm);
  return textForm;
}

// Query strings are text by nature; the integer is spelled out rather than coerced, so "1e3" or " 5" are refused.
/**
 * The decimal numbers 1 to `max` without leading zeros, as a regular expression's alternatives, so the
 * pattern a client reads in the OpenAPI document is the whole rule (for 200: 1-9, 10-99, 100-199, 200).
 */
export function oneToPattern(max: number): string {
  const digits = String(max);
  const alternatives: string[] = [];
  for (let length = 1; length < digits.length; length += 1) alternatives.push(length === 1 ? '[1-9]' : `[1-9][0-9]{${length - 1}}`);
  for (let at = 0; at < digits.length; at += 1) {
    const low = at === 0 ? 1 : 0;
    const high = Number(digits[at]) - 1;
    const rest = digits.length - at - 1;
    if (high >= low) alternatives.push(`${digits.slice(0, at)}[${low}-${high}]${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  return `^(?:${alternatives.join('|')})$`;
}

/** A page size in a query string, 1 to the page's maximum; `what` names the items, newest first. */
export const pageLimitQuery = (page: { defaultLimit: number; maxLimit: number }, what: string) => {
  const description = `How many ${what}, newest first: 1-${page.maxLimit}, default ${page.defaultLimit}.`;
  const atMost = `must be at most ${page.maxLimit}`;
  return withValueForm(
    z
      .string()
      .regex(new RegExp(oneToPattern(page.maxLimit)), `must be a whole number from 1 to ${page.maxLimit}`)
      .transform(Number)
      .optional()
      .meta({ description }),
    z.int().min(1, 'must be a positive whole number').max(page.maxLimit, atMost).optional().meta({ description }),
  );
};

export const projectVersion = z.number().int().min(1).meta({
  description: 'The project version you last read (`project.version`); a stale one is refused with 409 version_conflict.',
  examples: [3],
});

export const clientVersion = z.number().int().min(1).meta({
  description: 'The client version you last read (`client.clientVersion`); a stale one is refused with 409 version_conflict.',
  examples: [2],
});

export const errorBody = z
  .object({
    error: z.enum(ERROR_CODES).meta({ description: 'Machine-readable error code; the closed list is in the instructions.' }),
    error_description: z.string().meta({ description: 'What happened and what to do about it.' }),
    field_errors: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'Present only when fields are at fault: the field path (e.g. `redirectUris.0`) and what is wrong with it.' }),
  })
  .meta({ id: 'Error', description: 'The one error shape of both management APIs.' });

export type ErrorBodyJson = z.infer<typeof errorBody>;

export const projectIdParams = z.object({ projectId: z.string().meta({ description: 'The project identifier, e.g. `prj_...`.' }) });
export const clientIdParams = projectIdParams.extend({ clientId: z.string().meta({ description: 'The client identifier (`client_id` at the OIDC side), e.g. `cli_...`.' }) });

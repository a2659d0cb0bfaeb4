import { invisibleFormattingProblem } from './text-rules.ts';

// Line breaks (and tab) are fine in descriptions; every other C0 control character, and DEL, only hides text.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Why a free-text field (a name, a description) is refused, or undefined when it is acceptable. */
export function textProblem(value: unknown, rules: { required: boolean; maxLength: number; singleLine?: boolean }): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (rules.required && value.trim() === '') return 'must not be empty';
  if (value.length > rules.maxLength) return `must be at most ${rules.maxLength} characters`;
  if (rules.singleLine && /[\r\n]/.test(value)) return 'must be a single line';
  const control = CONTROL_CHARACTER.exec(value);
  if (control) return `must not contain control characters (found U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
  return invisibleFormattingProblem(value);
}

export const PROJECT_LIMITS = {
  maxNameLength: 200,
  maxDescriptionLength: 2000,
} as const;

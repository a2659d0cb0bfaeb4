import { invisibleFormattingProblem } from './text-rules.ts';

/** Why a free-text field (a name, a description) is refused, or undefined when it is acceptable. */
export function textProblem(value: unknown, rules: { required: boolean; maxLength: number; singleLine?: boolean }): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (rules.required && value.trim() === '') return 'must not be empty';
  if (value.length > rules.maxLength) return `must be at most ${rules.maxLength} characters`;
  if (rules.singleLine && /[\r\n]/.test(value)) return 'must be a single line';
  // Line breaks are fine in descriptions; other control characters only hide text.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value)) return 'must not contain control characters';
  return invisibleFormattingProblem(value);
}

export const PROJECT_LIMITS = {
  maxNameLength: 200,
  maxDescriptionLength: 2000,
} as const;

export const PASSWORD_RULES = { minLength: 8, maxLength: 256 } as const;

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_RULES.minLength) return `must be at least ${PASSWORD_RULES.minLength} characters`;
  if (password.length > PASSWORD_RULES.maxLength) return `must be at most ${PASSWORD_RULES.maxLength} characters`;
  return undefined;
}

/** Who must sign in with a second factor: nobody, administrators, or everyone. */
export const MFA_POLICIES = ['none', 'admins', 'everyone'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];

export interface SecuritySettings {
  mfaRequired: MfaPolicy;
  version: number;
}

/** Whether the policy asks this person for a second factor. */
export function mfaRequiredFor(policy: MfaPolicy, person: { isAdmin: boolean }): boolean {
  return policy === 'everyone' || (policy === 'admins' && person.isAdmin);
}

import { describe, expect, it } from 'vitest';
import { decideSignIn, firstProofOf } from './sign-in-decision.ts';

const nobody = { isAdmin: false, factors: [] } as const;
const admin = { isAdmin: true, factors: [] } as const;
const withTotp = { isAdmin: false, factors: ['totp'] } as const;
const withPasskey = { isAdmin: true, factors: ['passkey'] } as const;
const none = { policy: 'none' } as const;

describe('the sign-in decision (DESIGN 13)', () => {
  it('is done with one factor for a person with no factor whom nothing requires one', () => {
    expect(decideSignIn({ first: 'pwd' }, nobody, none)).toEqual({ outcome: 'done', amr: ['pwd'], acr: 'pwd' });
    expect(decideSignIn({ first: 'fed' }, nobody, none)).toEqual({ outcome: 'done', amr: ['fed'], acr: 'pwd' });
    expect(decideSignIn({ first: 'pwd' }, admin, { policy: 'admins' }).outcome).toBe('enrol');
    expect(decideSignIn({ first: 'pwd' }, nobody, { policy: 'admins' }).outcome).toBe('done');
  });

  it('owes the second factor after any first proof but a verified passkey, whatever the policy', () => {
    for (const first of ['pwd', 'fed'] as const) {
      expect(decideSignIn({ first }, withTotp, none)).toEqual({ outcome: 'second_factor', first, accepts: ['otp'] });
      expect(decideSignIn({ first }, withPasskey, { policy: 'everyone' })).toEqual({ outcome: 'second_factor', first, accepts: ['otp', 'hwk'] });
    }
    expect(decideSignIn({ first: 'hwk' }, withPasskey, none)).toEqual({ outcome: 'done', amr: ['hwk', 'mfa'], acr: 'mfa' });
  });

  it('is done with two factors once the second is presented', () => {
    expect(decideSignIn({ first: 'fed', second: 'otp' }, withTotp, none)).toEqual({ outcome: 'done', amr: ['fed', 'otp', 'mfa'], acr: 'mfa' });
    expect(decideSignIn({ first: 'fed', second: 'hwk' }, withPasskey, none)).toEqual({ outcome: 'done', amr: ['fed', 'hwk', 'mfa'], acr: 'mfa' });
    expect(decideSignIn({ first: 'pwd', second: 'otp' }, withTotp, none)).toEqual({ outcome: 'done', amr: ['pwd', 'otp', 'mfa'], acr: 'mfa' });
    expect(decideSignIn({ first: 'pwd', second: 'hwk' }, withPasskey, none)).toEqual({ outcome: 'done', amr: ['pwd', 'hwk', 'mfa'], acr: 'mfa' });
  });

  it('enrols a person without a factor when the policy or the application asks for a second one', () => {
    expect(decideSignIn({ first: 'fed' }, nobody, { policy: 'everyone' })).toEqual({ outcome: 'enrol', first: 'fed' });
    expect(decideSignIn({ first: 'pwd' }, nobody, { policy: 'none', clientWantsMfa: true })).toEqual({ outcome: 'enrol', first: 'pwd' });
  });

  it('keeps a live session\'s first proof for a step-up', () => {
    expect(firstProofOf(['fed'])).toBe('fed');
    expect(firstProofOf(['pwd'])).toBe('pwd');
    expect(firstProofOf(undefined)).toBe('pwd');
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as argon2 from '@node-rs/argon2';
import { cliActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { ARGON2_AT_ONCE, hashPassword, verifyPassword } from '../../src/services/sign-in/passwords.ts';

/** A sign-in from inside the process, with no address: only the per-account limit counts it. */
const signInHere = { ip: null, surface: 'management' } as const;

// Watch argon2's verify (the real one still runs) to see that every sign-in pays for one.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...actual, verify: vi.fn((hash: string, password: string) => actual.verify(hash, password)) };
});
const verifyCalls = () => vi.mocked(argon2.verify).mock.calls;
const parametersOf = (hash: string) => hash.split('$').slice(1, 4).join('$');

describe('password hashing', () => {
  beforeEach(() => {
    vi.mocked(argon2.verify).mockClear();
  });

  it('hashes with argon2id at OWASP parameters and verifies', async () => {
    const hash = await hashPassword('a good passphrase');
    expect(parametersOf(hash)).toBe('argon2id$v=19$m=19456,t=2,p=1');
    expect(await verifyPassword(hash, 'a good passphrase')).toBe(true);
    expect(await verifyPassword(hash, 'a bad passphrase')).toBe(false);
  });

  it('without a stored hash still runs one verification at the same parameters, and fails', async () => {
    expect(await verifyPassword(undefined, 'a good passphrase')).toBe(false);
    expect(verifyCalls()).toHaveLength(1);
    expect(parametersOf(verifyCalls()[0]![0] as string)).toBe('argon2id$v=19$m=19456,t=2,p=1');
  });

  it('runs no more verifications at once than there are cores, and answers every one', async () => {
    const hash = await hashPassword('a good passphrase');
    const actual = await vi.importActual<typeof import('@node-rs/argon2')>('@node-rs/argon2');
    let inFlight = 0;
    let most = 0;
    vi.mocked(argon2.verify).mockImplementation(async (stored, password) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await actual.verify(stored, password);
      } finally {
        inFlight -= 1;
      }
    });
    try {
      const burst = Array.from({ length: ARGON2_AT_ONCE * 3 }, (_, i) => verifyPassword(i % 2 ? hash : undefined, 'a good passphrase'));
      expect(await Promise.all(burst)).toEqual(Array.from({ length: ARGON2_AT_ONCE * 3 }, (_, i) => i % 2 === 1));
      expect(verifyCalls()).toHaveLength(ARGON2_AT_ONCE * 3);
      expect(most).toBe(ARGON2_AT_ONCE);
    } finally {
      vi.mocked(argon2.verify).mockImplementation((stored, password) => actual.verify(stored, password));
    }
  });
});

describe.each(TEST_ENGINES)('no account oracle in sign-in on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await ctx.services.users.createUser(cliActor, { account: 'erin', displayName: 'Erin', password: 'erin password 1' });
  });
  afterAll(() => ctx.close());
  beforeEach(() => {
    vi.mocked(argon2.verify).mockClear();
  });

  it('an unknown account costs one argon2id verification, like a wrong password', async () => {
    expect(await ctx.services.users.authenticate('erin', 'wrong password', signInHere)).toBeNull();
    const wrongPassword = verifyCalls().map(([hash]) => parametersOf(hash as string));
    vi.mocked(argon2.verify).mockClear();
    expect(await ctx.services.users.authenticate('nobody-by-this-name', 'wrong password', signInHere)).toBeNull();
    const unknownAccount = verifyCalls().map(([hash]) => parametersOf(hash as string));
    expect(wrongPassword).toEqual(['argon2id$v=19$m=19456,t=2,p=1']);
    expect(unknownAccount).toEqual(wrongPassword);
  });
});

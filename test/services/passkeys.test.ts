import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { AppError } from '../../src/errors.ts';
import { challengeBinding, PASSKEY_CHALLENGE_SECONDS } from '../../src/services/sign-in/passkeys.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, inFreshConsole, type Cast } from './fixtures.ts';

// A P-256 COSE public key's shape is enough here: these assertions fail before any signature is checked.
const PUBLIC_KEY = Buffer.from('a5010203262001215820' + '11'.repeat(32) + '225820' + '22'.repeat(32), 'hex').toString('base64url');

/** Passkey use cases below the browser: challenges, options, and failed assertions under the sign-in limits. */
describe.each(TEST_ENGINES)('passkeys (use cases) on %s', (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  let store: Store;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
    store = createStore(ctx.db, engine);
  });
  afterAll(() => ctx.close());

  async function addStoredPasskey(subjectId: string, credentialId: string) {
    const factorId = `fac_${credentialId}`;
    await store.repos.accountFactors.insert({
      factorId, subjectId, type: 'passkey', name: 'Key', status: 'active', secretEncrypted: '', lastUsedStep: null, createdAt: ctx.clock.now(), lastUsedAt: null,
      passkey: { credentialId, publicKey: PUBLIC_KEY, signCount: 0, transports: ['internal'] },
    });
    return factorId;
  }

  const assertion = (credentialId: string, challenge = 'not-the-challenge') => ({
    id: credentialId,
    rawId: credentialId,
    type: 'public-key',
    response: {
      clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: 'http://localhost:3000' })).toString('base64url'),
      authenticatorData: Buffer.alloc(37).toString('base64url'),
      signature: Buffer.alloc(64).toString('base64url'),
    },
    clientExtensionResults: {},
  });

  it('keeps each challenge for one use, for whom it was made, for 5 minutes', async () => {
    const first = await ctx.services.passkeys.signInOptions('uid-1');
    const binding = challengeBinding.signIn('uid-1');
    expect(await store.repos.webauthnChallenges.consume(sha256Hex(first.challenge), challengeBinding.signIn('uid-2'), ctx.clock.now())).toBe(false);
    expect(await store.repos.webauthnChallenges.consume(sha256Hex(first.challenge), binding, ctx.clock.now())).toBe(true);
    expect(await store.repos.webauthnChallenges.consume(sha256Hex(first.challenge), binding, ctx.clock.now())).toBe(false);
    const late = await ctx.services.passkeys.signInOptions('uid-1');
    ctx.clock.advance(PASSKEY_CHALLENGE_SECONDS * 1000 + 1);
    expect(await store.repos.webauthnChallenges.consume(sha256Hex(late.challenge), binding, ctx.clock.now())).toBe(false);
    const stored = await ctx.db.selectFrom('webauthn_challenges').select('challenge_digest').execute();
    expect(stored.map((row) => row.challenge_digest)).not.toContain(late.challenge);
  });

  it('makes creation options for the issuer\'s host: discoverable, user verification preferred, existing passkeys excluded', async () => {
    await addStoredPasskey(cast.viewer.subjectId!, 'viewer-key');
    const options = await ctx.services.passkeys.registrationOptions(inFreshConsole(cast.viewer, ctx));
    expect(options.rp).toEqual({ name: 'Sesame', id: 'localhost' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
    expect(options.excludeCredentials?.map((credential) => credential.id)).toEqual(['viewer-key']);
    expect(options.pubKeyCredParams.map((parameter) => parameter.alg)).toEqual([-8, -7, -257]);
    const { factors } = await ctx.services.factors.listFactors(cast.viewer);
    expect(factors).toEqual([expect.objectContaining({ type: 'passkey', name: 'Key' })]);

    const refused = await ctx.services.passkeys.addPasskey(inFreshConsole(cast.viewer, ctx), { name: 'Bad', response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('invalid_request');
  });

  it('counts failed passkey assertions toward the sign-in limits, and takes none for another person at the second step', async () => {
    await addStoredPasskey(cast.maintainer.subjectId!, 'maintainer-key');
    const from = { ip: '198.51.100.23', surface: 'login_page' as const };
    expect(await ctx.services.passkeys.signIn('uid-3', assertion('maintainer-key'), from, cast.owner.subjectId!)).toBeNull();
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const options = await ctx.services.passkeys.signInOptions('uid-4');
      const result = await ctx.services.passkeys.signIn('uid-4', assertion('maintainer-key', options.challenge), from).catch((error: unknown) => (error instanceof AppError ? error.code : 'other'));
      outcomes.push(result === null ? 'failed' : typeof result === 'string' ? result : 'signed-in');
    }
    expect(outcomes).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'rate_limited']);
  });
});

import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

const WINDOW_SECONDS = 120;

describe.each(TEST_ENGINES)('person-only operations need a fresh proof in the console session (DESIGN.md section 14), on %s', (engine) => {
  let ctx: TestContext;
  const stale = () => ctx.clock.advance((WINDOW_SECONDS + 1) * 1000);
  const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(ctx.clock.now() / 1000) });

  async function signedIn(account: string) {
    const browser = createConsoleClient(ctx.app);
    await browser.login(account, PASSWORD);
    return browser;
  }

  /** The security notices queued for the person, newest last. */
  async function noticesTo(account: string): Promise<string[]> {
    const user = (await ctx.services.users.findByAccount(account))!;
    const rows = await ctx.db.selectFrom('mail_outbox').select(['params', 'created_at']).where('subject_id', '=', user.subjectId).where('kind', '=', 'security_notice').orderBy('created_at').execute();
    return rows.map((row) => (JSON.parse(row.params as string) as { notice: string }).notice);
  }

  beforeAll(async () => {
    // Mail is on (to a port where nothing listens: it stays queued), so the notices can be counted.
    ctx = await createTestContext(engine, { REAUTH_WINDOW_SECONDS: String(WINDOW_SECONDS), SMTP_URL: 'smtp://127.0.0.1:9', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '3' });
    await createAccounts(ctx.services, ['fay', 'gus', 'hal', 'ike']);
    for (const account of ['fay', 'gus', 'hal', 'ike']) {
      const user = (await ctx.services.users.findByAccount(account))!;
      await ctx.services.users.updateUser({ subjectId: null, isAdmin: true, surface: 'cli', ip: null }, user.subjectId, { email: `${account}@example.test`, emailVerified: true });
    }
  });
  afterAll(() => ctx.close());

  it('the sign-in counts as proof; after REAUTH_WINDOW_SECONDS the session is refused 403 reauthentication_required, then re-authenticated with the password', async () => {
    const fay = await signedIn('fay');
    const started = await fay.call('POST', '/account/factors/totp', { name: 'Phone' });
    expect(started.status).toBe(201);

    stale();
    const before = await ctx.db.selectFrom('account_factors').select('factor_id').execute();
    for (const [method, path, body] of [
      ['POST', '/account/factors/totp', { name: 'Late' }],
      ['POST', `/account/factors/totp/${started.body.factorId}/confirm`, { code: await codeNow(started.body.secret) }],
      ['POST', '/account/factors/passkeys/options', undefined],
      ['POST', '/account/recovery-codes', undefined],
      ['POST', '/account/email', { email: 'fay.new@example.test' }],
      ['DELETE', '/account/identities/idn_anything', undefined],
      // The current password alone does not make up for a stale session when changing the password.
      ['POST', '/account/password', { currentPassword: PASSWORD, newPassword: 'a password after too long' }],
    ] as const) {
      const refused = await fay.call(method, path, body);
      expect([refused.status, refused.body.error], `${method} ${path}`).toEqual([403, 'reauthentication_required']);
      expect(refused.body.error_description).toContain('POST /account/reauthenticate');
    }
    expect(await ctx.db.selectFrom('account_factors').select('factor_id').execute()).toEqual(before);
    // Reading stays open.
    expect((await fay.call('GET', '/account/factors')).status).toBe(200);

    const wrong = await fay.call('POST', '/account/reauthenticate', { currentPassword: 'not the password' });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_credentials']);
    expect((await fay.call('POST', '/account/reauthenticate', {})).status).toBe(400);
    expect((await fay.call('POST', '/account/reauthenticate', { currentPassword: PASSWORD, otp: '123456' })).status).toBe(400);
    expect((await fay.call('POST', '/account/reauthenticate', { currentPassword: PASSWORD })).status).toBe(204);

    const confirmed = await fay.call('POST', `/account/factors/totp/${started.body.factorId}/confirm`, { code: await codeNow(started.body.secret) });
    expect(confirmed.status).toBe(200);
    const audit = await ctx.db.selectFrom('audit_log').select('action').where('action', '=', 'session.reauthenticate').execute();
    expect(audit).toHaveLength(1);

    // A second factor's code proves it too (TOTP, or a recovery code).
    stale();
    expect((await fay.call('POST', '/account/recovery-codes')).body.error).toBe('reauthentication_required');
    ctx.clock.advance(30_000);
    expect((await fay.call('POST', '/account/reauthenticate', { otp: await codeNow(started.body.secret) })).status).toBe(204);
    expect((await fay.call('POST', '/account/recovery-codes')).status).toBe(201);
    stale();
    expect((await fay.call('POST', '/account/reauthenticate', { otp: 'not-a-code' })).body.error).toBe('invalid_credentials');
    expect((await fay.call('POST', '/account/reauthenticate', { otp: confirmed.body.recoveryCodes[0] })).status).toBe(401); // replaced by the new codes
  });

  it('counts a wrong re-authentication toward the sign-in limits', async () => {
    const gus = await signedIn('gus');
    stale();
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await gus.call('POST', '/account/reauthenticate', { currentPassword: 'wrong' })).status).toBe(401);
    const limited = await gus.call('POST', '/account/reauthenticate', { currentPassword: PASSWORD });
    expect([limited.status, limited.body.error]).toEqual([429, 'rate_limited']);
    expect((await gus.call('POST', '/account/recovery-codes')).body.error).toBe('reauthentication_required');
  });

  it('removing a factor takes the current password as its proof in a stale session, or nothing in a fresh one', async () => {
    const hal = await signedIn('hal');
    const started = (await hal.call('POST', '/account/factors/totp', { name: 'Phone' })).body;
    await hal.call('POST', `/account/factors/totp/${started.factorId}/confirm`, { code: await codeNow(started.secret) });
    expect((await hal.call('DELETE', '/account/factors/recovery_codes')).status).toBe(204);
    stale();
    expect((await hal.call('DELETE', `/account/factors/${started.factorId}`)).body.error).toBe('reauthentication_required');
    expect((await hal.call('DELETE', `/account/factors/${started.factorId}`, { currentPassword: 'wrong' })).body.error).toBe('invalid_credentials');
    expect((await hal.call('DELETE', `/account/factors/${started.factorId}`, { currentPassword: PASSWORD })).status).toBe(204);
    expect((await hal.call('GET', '/account/factors')).body.factors).toEqual([]);
  });

  it('sends the person a notice for every credential change the person-only operations make', async () => {
    const ike = await signedIn('ike');
    const started = (await ike.call('POST', '/account/factors/totp', { name: 'Phone' })).body;
    expect(await noticesTo('ike')).toEqual([]); // pending: nothing changed yet
    await ike.call('POST', `/account/factors/totp/${started.factorId}/confirm`, { code: await codeNow(started.secret) });
    expect(await noticesTo('ike')).toEqual(['second_factor_changed']);
    await ike.call('POST', '/account/recovery-codes');
    expect((await noticesTo('ike')).length).toBe(2);
    await ike.call('DELETE', `/account/factors/${started.factorId}`);
    expect((await noticesTo('ike')).length).toBe(3);
    expect((await ike.call('POST', '/account/password', { currentPassword: PASSWORD, newPassword: 'a new passphrase for ike' })).status).toBe(204);
    expect((await noticesTo('ike')).at(-1)).toBe('password_changed');
  });
});

import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { createServices } from '../../src/services/index.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, inFreshConsole, type Cast } from './fixtures.ts';

const PASSWORD = 'a long enough password';
const from = { ip: '192.0.2.7', surface: 'agent' as const };

describe.each(TEST_ENGINES)('second factors (use cases) on %s', (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(ctx.clock.now() / 1000) });
  const accountOf = async (subjectId: string) => (await ctx.services.users.getUser(subjectId))!.account;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
  });
  afterAll(() => ctx.close());

  it('keeps the TOTP secret sealed under the key-encryption secret: another secret opens nothing', async () => {
    const started = await ctx.services.factors.startTotp(inFreshConsole(cast.owner, ctx), { name: 'Phone' });
    await ctx.services.factors.confirmTotp(inFreshConsole(cast.owner, ctx), started.factorId, await codeNow(started.secret));
    ctx.clock.advance(30_000);
    const elsewhere = createServices({ db: ctx.db, engine, clock: ctx.clock, keyEncryptionSecret: 'another key-encryption secret, 32+ chars long' });
    const account = await accountOf(cast.owner.subjectId!);
    await expect(elsewhere.users.authenticate(account, PASSWORD, from, await codeNow(started.secret))).rejects.toThrow(/cannot be decrypted/);
    expect(await ctx.services.users.authenticate(account, PASSWORD, from, await codeNow(started.secret))).toMatchObject({ subjectId: cast.owner.subjectId });
  });

  it('answers mfa_required without a code, and null for a wrong one', async () => {
    const account = await accountOf(cast.owner.subjectId!);
    const refused = await ctx.services.users.authenticate(account, PASSWORD, from).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('mfa_required');
    expect(await ctx.services.users.authenticate(account, PASSWORD, from, 'not-a-code')).toBeNull();
  });

  it('lets exactly one of many simultaneous sign-ins use a code', async () => {
    const started = await ctx.services.factors.startTotp(inFreshConsole(cast.maintainer, ctx), {});
    await ctx.services.factors.confirmTotp(inFreshConsole(cast.maintainer, ctx), started.factorId, await codeNow(started.secret));
    ctx.clock.advance(30_000);
    const code = await codeNow(started.secret);
    const account = await accountOf(cast.maintainer.subjectId!);
    const wide = engine === 'postgres' ? openDatabase(ctx.databaseUrl, { poolSize: 12 }) : undefined;
    const services = wide ? createServices({ db: wide.db, engine, clock: ctx.clock }) : ctx.services;
    try {
      const results = await Promise.all(Array.from({ length: 8 }, () => services.users.authenticate(account, PASSWORD, { ip: null, surface: 'agent' }, code)));
      expect(results.filter((user) => user !== null)).toHaveLength(1);
    } finally {
      await wide?.close();
    }
  });

  it('writes every change with its audit entry, never a secret or a code', async () => {
    const started = await ctx.services.factors.startTotp(inFreshConsole(cast.viewer, ctx), { name: 'Tablet' });
    const { recoveryCodes } = await ctx.services.factors.confirmTotp(inFreshConsole(cast.viewer, ctx), started.factorId, await codeNow(started.secret));
    await ctx.services.factors.newRecoveryCodes(inFreshConsole(cast.viewer, ctx));
    await ctx.services.account.changePassword({ actor: inFreshConsole(cast.viewer, ctx), currentToken: null }, { currentPassword: PASSWORD, newPassword: 'another long enough password' });
    await ctx.services.factors.resetFactors(cast.admin, cast.viewer.subjectId!);
    const entries = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', cast.viewer.subjectId!).orderBy('at').execute();
    expect(entries.map((entry) => entry.action)).toEqual(expect.arrayContaining(['account.factor_start', 'account.factor_add', 'account.recovery_codes_new', 'account.password_change', 'user.factors_reset']));
    const written = JSON.stringify(entries);
    expect(written).not.toContain(started.secret);
    for (const code of recoveryCodes!) expect(written).not.toContain(code);
    expect(written).not.toContain('another long enough password');
    await expect(ctx.services.factors.resetFactors(cast.viewer, cast.admin.subjectId!)).rejects.toMatchObject({ code: 'forbidden' });
  });
});

import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient, type ApiResponse, type Method } from './helpers/api-clients.ts';
import { createOpenApiChecker } from './helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

type Surface = 'agent' | 'console';

/** One signed-in caller of either management surface. */
interface Caller {
  login(account: string, password: string, otp?: string): Promise<ApiResponse>;
  call(method: Method, path: string, body?: unknown): Promise<ApiResponse>;
  /** The session's token (bearer or cookie value). */
  token(): string | undefined;
}

function callerOn(surface: Surface, ctx: TestContext): Caller {
  if (surface === 'agent') {
    const agent = createAgentClient(ctx.app);
    return {
      async login(account, password, otp) {
        const response = await agent.call('POST', '/auth/login', { account, password, ...(otp !== undefined ? { otp } : {}) });
        if (response.status === 200) agent.token = response.body.accessToken;
        return response;
      },
      call: (method, path, body) => agent.call(method, path, body),
      token: () => agent.token,
    };
  }
  const browser = createConsoleClient(ctx.app);
  return {
    async login(account, password, otp) {
      await browser.context();
      const response = await browser.call('POST', '/auth/login', { account, password, ...(otp !== undefined ? { otp } : {}) });
      if (response.status === 200) browser.csrfToken = response.body.csrfToken;
      return response;
    },
    call: (method, path, body) => browser.call(method, path, body),
    token: () => browser.jar.get('sesame_console'),
  };
}

const SURFACES: Surface[] = ['agent', 'console'];

describe.each(TEST_ENGINES)('second factors and my account on %s', (engine) => {
  let ctx: TestContext;
  const codeAt = (secret: string, ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
  const codeNow = (secret: string) => codeAt(secret, ctx.clock.now());
  const nextStep = () => ctx.clock.advance(30_000);

  beforeAll(async () => {
    ctx = await createTestContext(engine, { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '3' });
    await createAccounts(ctx.services, ['root'], ['root']);
    for (const surface of SURFACES) {
      await createAccounts(ctx.services, [`totp-${surface}`, `limit-${surface}`, `pw-${surface}`, `sess-${surface}`, `reset-${surface}`]);
    }
  });
  afterAll(() => ctx.close());

  // Adding, confirming and removing factors, new recovery codes and a new password are the person's alone,
  // in the console (DESIGN.md section 14; test/mcp/person-only-tools.test.ts checks the Agent API's
  // refusal): those steps go through a console caller, and each sign-in through the surface under test.

  /** Signs in, adds and confirms an authenticator; its secret and the recovery codes. */
  async function enrol(caller: Caller, account: string) {
    expect((await caller.login(account, PASSWORD)).status).toBe(200);
    const started = await caller.call('POST', '/account/factors/totp', { name: 'Phone' });
    expect(started.status).toBe(201);
    const confirmed = await caller.call('POST', `/account/factors/totp/${started.body.factorId}/confirm`, { code: await codeNow(started.body.secret) });
    expect(confirmed.status).toBe(200);
    return { secret: started.body.secret as string, factorId: started.body.factorId as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  }

  describe.each(SURFACES)('through the %s surface', (surface) => {
    it('enrols an authenticator: the secret sealed at rest, a QR code in SVG, ten recovery codes kept as digests', async () => {
      const caller = callerOn('console', ctx);
      const checker = createOpenApiChecker((await createAgentClient(ctx.app).call('GET', '/openapi.json')).body);
      const account = `totp-${surface}`;
      expect((await caller.login(account, PASSWORD)).status).toBe(200);
      const started = await caller.call('POST', '/account/factors/totp', { name: 'Phone' });
      expect(started.status).toBe(201);
      if (surface === 'agent') expect(checker.check('POST', '/account/factors/totp', started)).toEqual([]);
      expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(started.body.otpauthUri).toBe(`otpauth://totp/Sesame:${account}?secret=${started.body.secret}&issuer=Sesame`);
      expect(started.body.qrCodeSvg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>\s*$/);
      const row = await ctx.db.selectFrom('account_factors').selectAll().where('factor_id', '=', started.body.factorId).executeTakeFirstOrThrow();
      expect(row.status).toBe('pending');
      expect(row.secret_encrypted).toMatch(/^v1\./);
      expect(row.secret_encrypted).not.toContain(started.body.secret);

      // Pending: sign-in still needs only the password.
      expect((await callerOn(surface, ctx).login(account, PASSWORD)).status).toBe(200);
      const wrong = await caller.call('POST', `/account/factors/totp/${started.body.factorId}/confirm`, { code: '000000' === (await codeNow(started.body.secret)) ? '111111' : '000000' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.field_errors).toEqual({ code: 'does not match the authenticator' });

      const confirmed = await caller.call('POST', `/account/factors/totp/${started.body.factorId}/confirm`, { code: await codeNow(started.body.secret) });
      expect(confirmed.status).toBe(200);
      if (surface === 'agent') expect(checker.check('POST', '/account/factors/totp/{factorId}/confirm', confirmed)).toEqual([]);
      expect(confirmed.body.factor).toMatchObject({ factorId: started.body.factorId, type: 'totp', name: 'Phone' });
      const codes: string[] = confirmed.body.recoveryCodes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code.replace(/-/g, '').length).toBeGreaterThanOrEqual(10);
      const stored = JSON.stringify(await ctx.db.selectFrom('recovery_codes').selectAll().execute());
      for (const code of codes) expect(stored).not.toContain(code);

      const listed = await caller.call('GET', '/account/factors');
      expect(listed.status).toBe(200);
      expect(listed.body.mfaRequired).toBe(false);
      expect(listed.body.factors.map((f: any) => f.type)).toEqual(['totp', 'recovery_codes']);
      // The console names the set in the person's language from the count, not from the English name.
      expect(listed.body.factors.find((f: any) => f.type === 'recovery_codes')).toMatchObject({ name: 'Recovery codes (10 unused)', unusedCodes: 10 });
      expect(listed.body.factors.find((f: any) => f.type === 'totp')).not.toHaveProperty('unusedCodes');
    });

    it('answers a login without otp 401 mfa_required once a factor is confirmed, saying where the code goes', async () => {
      const account = `totp-${surface}`;
      const fresh = callerOn(surface, ctx);
      const withoutOtp = await fresh.login(account, PASSWORD);
      expect(withoutOtp.status).toBe(401);
      expect(withoutOtp.body.error).toBe('mfa_required');
      expect(withoutOtp.body.error_description).toContain('`otp`');
      // The wrong password is still just wrong: mfa_required tells nothing before the password is right.
      expect((await fresh.login(account, 'not the password')).body.error).toBe('invalid_credentials');
    });

    it('signs in with a TOTP code once per time step and with each recovery code once', async () => {
      const caller = callerOn('console', ctx);
      const { secret, recoveryCodes } = await enrol(caller, `sess-${surface}`);
      // The code that confirmed the factor is spent.
      const replay = await callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, await codeNow(secret));
      expect(replay.status).toBe(401);
      expect(replay.body.error).toBe('invalid_credentials');
      nextStep();
      const code = await codeNow(secret);
      expect((await callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, code)).status).toBe(200);
      expect((await callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, code)).status).toBe(401);
      // Two sign-ins racing with one fresh code: exactly one gets in.
      nextStep();
      const racing = await codeNow(secret);
      const raced = await Promise.all([0, 1].map(() => callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, racing)));
      expect(raced.map((r) => r.status).sort()).toEqual([200, 401]);
      const recovery = recoveryCodes[0]!;
      expect((await callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, recovery.toUpperCase())).status).toBe(200);
      expect((await callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, recovery)).status).toBe(401);

      // New recovery codes: the old ones die.
      const renewed = await caller.call('POST', '/account/recovery-codes');
      expect(renewed.status).toBe(201);
      expect(renewed.body.recoveryCodes).toHaveLength(10);
      expect((await callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, recoveryCodes[1]!)).status).toBe(401);
      expect((await callerOn(surface, ctx).login(`sess-${surface}`, PASSWORD, renewed.body.recoveryCodes[0])).status).toBe(200);
    });

    it('counts a wrong one-time code toward the sign-in limits, but not a login without one', async () => {
      const account = `limit-${surface}`;
      const { secret } = await enrol(callerOn('console', ctx), account);
      for (let i = 0; i < 5; i++) expect((await callerOn(surface, ctx).login(account, PASSWORD)).body.error).toBe('mfa_required');
      nextStep();
      expect((await callerOn(surface, ctx).login(account, PASSWORD, await codeNow(secret))).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await callerOn(surface, ctx).login(account, PASSWORD, '12345x')).body.error).toBe('invalid_credentials');
      nextStep();
      const limited = await callerOn(surface, ctx).login(account, PASSWORD, await codeNow(secret));
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('rate_limited');
    });

    it('removes a factor only with the current password; then the password alone signs in', async () => {
      const account = `reset-${surface}`;
      const caller = callerOn('console', ctx);
      const { factorId, secret } = await enrol(caller, account);
      const wrong = await caller.call('DELETE', `/account/factors/${factorId}`, { currentPassword: 'not it' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_credentials');
      expect((await caller.call('DELETE', '/account/factors/fac_unknown', { currentPassword: PASSWORD })).status).toBe(404);
      expect((await caller.call('DELETE', `/account/factors/${factorId}`, { currentPassword: PASSWORD })).status).toBe(204);
      expect((await caller.call('GET', '/account/factors')).body.factors).toEqual([]);
      expect((await callerOn(surface, ctx).login(account, PASSWORD)).status).toBe(200);
      // Its recovery codes went with the last authenticator, and its secret with its row.
      const subjectId = (await ctx.services.users.findByAccount(account))!.subjectId;
      expect(await ctx.db.selectFrom('recovery_codes').selectAll().where('subject_id', '=', subjectId).execute()).toEqual([]);
      expect(JSON.stringify(await ctx.db.selectFrom('account_factors').selectAll().where('subject_id', '=', subjectId).execute())).not.toContain(secret);
    });

    it('changes the password: the session that did it stays, every other one ends', async () => {
      const account = `pw-${surface}`;
      const me = callerOn('console', ctx);
      const other = callerOn(surface, ctx);
      const agent = callerOn('agent', ctx);
      expect((await me.login(account, PASSWORD)).status).toBe(200);
      expect((await other.login(account, PASSWORD)).status).toBe(200);
      expect((await agent.login(account, PASSWORD)).status).toBe(200);

      const sessions = await me.call('GET', '/account/sessions');
      expect(sessions.status).toBe(200);
      expect(sessions.body.sessions).toHaveLength(3);
      expect(sessions.body.sessions.filter((s: any) => s.current)).toHaveLength(1);
      for (const session of sessions.body.sessions) {
        expect(session.sessionId).toMatch(/^ses_/);
        for (const token of [me.token(), other.token(), agent.token()]) {
          expect(session.sessionId).not.toContain(token!);
          expect(session.sessionId).not.toContain(sha256Hex(token!).slice(0, 16));
        }
      }

      const wrong = await me.call('POST', '/account/password', { currentPassword: 'not it', newPassword: 'a brand new passphrase' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_credentials');
      const short = await me.call('POST', '/account/password', { currentPassword: PASSWORD, newPassword: 'short' });
      expect(short.status).toBe(400);
      expect(short.body.field_errors.newPassword).toMatch(/at least 8/);

      expect((await me.call('POST', '/account/password', { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' })).status).toBe(204);
      expect((await me.call('GET', '/account/sessions')).status).toBe(200);
      expect((await other.call('GET', '/account/sessions')).status).toBe(401);
      expect((await agent.call('GET', '/account/sessions')).status).toBe(401);
      expect((await callerOn(surface, ctx).login(account, PASSWORD)).status).toBe(401);
      expect((await callerOn(surface, ctx).login(account, 'a brand new passphrase')).status).toBe(200);
    });

    it('lists my sessions and ends one by its id; another person\'s or an unknown id is not found', async () => {
      const account = `pw-${surface}`;
      const me = callerOn(surface, ctx);
      const second = callerOn('agent', ctx);
      await me.login(account, 'a brand new passphrase');
      await second.login(account, 'a brand new passphrase');
      const listed = (await me.call('GET', '/account/sessions')).body.sessions as Array<{ sessionId: string; kind: string; current: boolean }>;
      const target = listed.find((s) => !s.current && s.kind === 'agent' && s.sessionId)!;
      const stranger = callerOn(surface, ctx);
      await stranger.login('root', PASSWORD);
      expect((await stranger.call('DELETE', `/account/sessions/${target.sessionId}`)).status).toBe(404);
      expect((await me.call('DELETE', '/account/sessions/ses_unknown')).status).toBe(404);
      expect((await me.call('DELETE', `/account/sessions/${target.sessionId}`)).status).toBe(204);
      const after = (await me.call('GET', '/account/sessions')).body.sessions as Array<{ sessionId: string }>;
      expect(after.map((s) => s.sessionId)).not.toContain(target.sessionId);
      expect(after.length).toBe(listed.length - 1);
    });
  });

  it('lets administrators set the policy under a version and reset a person\'s factors, on both surfaces', async () => {
    const admin = callerOn('console', ctx);
    const adminAgent = callerOn('agent', ctx);
    expect((await admin.login('root', PASSWORD)).status).toBe(200);
    expect((await adminAgent.login('root', PASSWORD)).status).toBe(200);
    const read = await admin.call('GET', '/admin/settings');
    expect(read.body).toEqual({ settings: { mfaRequired: 'none', version: 1 } });
    const changed = await adminAgent.call('PATCH', '/admin/settings', { mfaRequired: 'admins', expectedSettingsVersion: 1 });
    expect(changed.body).toEqual({ settings: { mfaRequired: 'admins', version: 2 } });
    const stale = await admin.call('PATCH', '/admin/settings', { mfaRequired: 'everyone', expectedSettingsVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect((await admin.call('PATCH', '/admin/settings', { mfaRequired: 'sometimes', expectedSettingsVersion: 2 })).status).toBe(400);
    expect((await admin.call('GET', '/account/factors')).body.mfaRequired).toBe(true);
    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'settings.update').execute();
    expect(audit).toHaveLength(1);

    const person = callerOn('agent', ctx);
    expect((await person.login('totp-agent', PASSWORD)).status).toBe(401);
    expect((await person.call('GET', '/admin/settings')).status).toBe(401);
    const subjectId = (await ctx.services.users.findByAccount('totp-agent'))!.subjectId;
    const nonAdmin = callerOn('agent', ctx);
    await nonAdmin.login('pw-console', 'a brand new passphrase');
    expect((await nonAdmin.call('POST', `/admin/users/${subjectId}/factors/reset`)).status).toBe(403);
    expect((await nonAdmin.call('GET', '/admin/settings')).status).toBe(403);
    expect((await admin.call('POST', '/admin/users/00000000-0000-4000-8000-000000000000/factors/reset')).status).toBe(404);
    expect((await admin.call('POST', `/admin/users/${subjectId}/factors/reset`)).status).toBe(204);
    expect((await person.login('totp-agent', PASSWORD)).status).toBe(200);
    expect(await ctx.db.selectFrom('recovery_codes').selectAll().where('subject_id', '=', subjectId).execute()).toEqual([]);
  });
});

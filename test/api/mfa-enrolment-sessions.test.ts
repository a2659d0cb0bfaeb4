import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, type Actor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

/**
 * The second-factor policy at the management doors (DESIGN 13): a person the policy requires to have a
 * factor and who has none signs in to the Agent API or the console with `enrolmentRequired: true`, and that
 * session may only see who it is, list its factors, log out and, in the console, enrol. After enrolling, a
 * new sign-in (with the code) has every right the person has.
 */
describe.each(TEST_ENGINES)('the second-factor policy at the management doors on %s', (engine) => {
  let ctx: TestContext;
  let accounts: Awaited<ReturnType<typeof createAccounts<'root' | 'ada' | 'bob' | 'cy'>>>;

  const setPolicy = async (mfaRequired: 'none' | 'admins' | 'everyone') => {
    const { version } = await ctx.services.settings.getSettings(cliActor);
    await ctx.services.settings.updateSettings(cliActor, { mfaRequired, expectedSettingsVersion: version });
  };
  const codeOf = (secret: string) => generate({ secret, epoch: Math.floor(ctx.clock.now() / 1000) });

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    accounts = await createAccounts(ctx.services, ['root', 'ada', 'bob', 'cy'] as const, ['root', 'ada', 'cy']);
  });
  afterAll(() => ctx?.close());

  it('lets an administrator without a factor log in to the Agent API only to enrol, under mfaRequired "admins"', async () => {
    await setPolicy('admins');
    try {
      const agent = createAgentClient(ctx.app);
      const login = await agent.login('ada', PASSWORD);
      expect(login.status).toBe(200);
      expect(login.body.enrolmentRequired).toBe(true);

      const me = await agent.call('GET', '/auth/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ user: { subjectId: accounts.ada.subjectId }, enrolmentRequired: true });
      const factors = await agent.call('GET', '/account/factors');
      expect(factors.status).toBe(200);
      expect(factors.body).toEqual({ factors: [], mfaRequired: true });

      const users = await agent.call('GET', '/admin/users');
      expect(users.status).toBe(403);
      expect(users.body.error).toBe('mfa_enrolment_required');
      expect(users.body.error_description).toMatch(/console/);
      expect(users.body.error_description).toMatch(/My account/);
      // Enrolment is the console's: the Agent API token cannot start it either, nor change anything else.
      for (const [method, path, body] of [
        ['GET', '/projects', undefined],
        ['POST', '/projects', { name: 'Not yet' }],
        ['POST', '/account/factors/totp', {}],
        ['GET', '/account/sessions', undefined],
      ] as const) {
        const refused = await agent.call(method, path, body);
        expect(refused.status, `${method} ${path}`).toBe(403);
        expect(refused.body.error).toBe('mfa_enrolment_required');
      }
      expect(await ctx.services.projects.listProjects({ subjectId: accounts.ada.subjectId, isAdmin: true, surface: 'agent', ip: null })).toEqual([]);

      expect((await agent.call('POST', '/auth/logout')).status).toBe(204);
      expect((await agent.call('GET', '/auth/me')).status).toBe(401);

      // A person the policy does not name signs in as before.
      const bob = createAgentClient(ctx.app);
      expect((await bob.login('bob', PASSWORD)).body.enrolmentRequired).toBe(false);
      expect((await bob.call('GET', '/projects')).status).toBe(200);
    } finally {
      await setPolicy('none');
    }
  });

  it('takes a console session through enrolment, and a new sign-in with the code then has every right', async () => {
    await setPolicy('everyone');
    try {
      const browser = createConsoleClient(ctx.app);
      const login = await browser.login('cy', PASSWORD);
      expect(login.body.enrolmentRequired).toBe(true);
      expect((await browser.context()).body).toMatchObject({ authenticated: true, enrolmentRequired: true });
      expect((await browser.call('GET', '/auth/me')).body.enrolmentRequired).toBe(true);
      const users = await browser.call('GET', '/admin/users');
      expect(users.status).toBe(403);
      expect(users.body.error).toBe('mfa_enrolment_required');
      expect((await browser.call('GET', '/account/consents')).status).toBe(403);

      const started = await browser.call('POST', '/account/factors/totp', { name: 'Phone' });
      expect(started.status).toBe(201);
      const options = await browser.call('POST', '/account/factors/passkeys/options');
      expect(options.status).toBe(200);
      const confirmed = await browser.call('POST', `/account/factors/totp/${started.body.factorId}/confirm`, { code: await codeOf(started.body.secret) });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.recoveryCodes).toHaveLength(10);
      // Still the enrolment-only session: the rights come with a sign-in that presents the factor.
      expect((await browser.call('GET', '/admin/users')).status).toBe(403);

      ctx.clock.advance(30_000);
      const again = createConsoleClient(ctx.app);
      await again.context();
      const withoutCode = await again.call('POST', '/auth/login', { account: 'cy', password: PASSWORD });
      expect(withoutCode.status).toBe(401);
      expect(withoutCode.body.error).toBe('mfa_required');
      const withCode = await again.call('POST', '/auth/login', { account: 'cy', password: PASSWORD, otp: await codeOf(started.body.secret) });
      expect(withCode.status).toBe(200);
      expect(withCode.body.enrolmentRequired).toBe(false);
      again.csrfToken = withCode.body.csrfToken;
      expect((await again.call('GET', '/admin/users')).status).toBe(200);
    } finally {
      await setPolicy('none');
    }
  });

  it('binds each person from their next sign-in: a session opened before the policy keeps its rights, the next one may only enrol', async () => {
    const before = createAgentClient(ctx.app);
    expect((await before.login('root', PASSWORD)).body.enrolmentRequired).toBe(false);
    await setPolicy('admins');
    try {
      expect((await before.call('GET', '/admin/users')).status).toBe(200);
      const after = createAgentClient(ctx.app);
      expect((await after.login('root', PASSWORD)).body.enrolmentRequired).toBe(true);
      expect((await after.call('GET', '/admin/users')).status).toBe(403);
    } finally {
      await setPolicy('none');
    }
    // Lifting the policy binds from the next sign-in too.
    const lifted = createAgentClient(ctx.app);
    expect((await lifted.login('root', PASSWORD)).body.enrolmentRequired).toBe(false);
    expect((await lifted.call('GET', '/admin/users')).status).toBe(200);
  });

  it('asks a person with a factor for the code at the Agent API login before any token, and records the enrolment-only session in the audit', async () => {
    // Adding a factor is person-only: a console session that proved the person just now (DESIGN.md section 14).
    const bob: Actor = { subjectId: accounts.bob.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: ctx.clock.now() };
    const started = await ctx.services.factors.startTotp(bob, { name: 'Phone' });
    await ctx.services.factors.confirmTotp(bob, started.factorId, await codeOf(started.secret));
    ctx.clock.advance(30_000);
    const agent = createAgentClient(ctx.app);
    const withoutCode = await agent.call('POST', '/auth/login', { account: 'bob', password: PASSWORD });
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body.error).toBe('mfa_required');
    expect(withoutCode.body.accessToken).toBeUndefined();
    const withCode = await agent.call('POST', '/auth/login', { account: 'bob', password: PASSWORD, otp: await codeOf(started.secret) });
    expect(withCode.status).toBe(200);
    expect(withCode.body.enrolmentRequired).toBe(false);

    const audit = await ctx.services.audit.listAdminAuditLogs(cliActor, {});
    expect(audit.some((entry) => entry.action === 'session.login' && entry.targetId === accounts.ada.subjectId && JSON.stringify(entry.after).includes('"enrolmentRequired":true'))).toBe(true);
  });
});

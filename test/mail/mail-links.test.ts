import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createStore } from '../../src/storage/store.ts';
import { createAgentClient, createConsoleClient } from '../api/helpers/api-clients.ts';
import { createAccounts, PASSWORD } from '../api/helpers/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { linkToken, startSmtpCapture, type CapturedMail, type SmtpCapture } from '../helpers/smtp-capture.ts';

const ISSUER = 'http://localhost:3000';
const NEW_PASSWORD = 'a brand new passphrase';

describe.each(TEST_ENGINES)('mailed single-use links on %s', (engine) => {
  let smtp: SmtpCapture;
  let ctx: TestContext;
  let admin: ReturnType<typeof createAgentClient>;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    ctx = await createTestContext(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>' });
    await createAccounts(ctx.services, ['root'], ['root']);
    admin = createAgentClient(ctx.app);
    await admin.login('root', PASSWORD);
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.stop();
  });

  const page = (method: 'GET' | 'POST', url: string, form?: Record<string, string>) =>
    ctx.app.inject({ method, url, ...(form ? { payload: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}) });
  const mailTo = (address: string, subject: RegExp) => smtp.waitFor((mail) => mail.envelopeTo.includes(address) && subject.test(mail.subject));
  const userOf = async (account: string) => (await ctx.services.users.findByAccount(account))!;

  function expectStrictPage(response: Awaited<ReturnType<typeof page>>) {
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).not.toMatch(/<script/i);
  }

  function expectPlainAndHtml(mail: CapturedMail) {
    expect(mail.headers.from).toBe('Sesame <sesame@example.test>');
    expect(mail.text.length).toBeGreaterThan(50);
    expect(mail.html).toMatch(/^<!doctype html>/);
    // No remote images: nothing in the HTML loads from anywhere.
    expect(mail.html).not.toMatch(/<img|<script|url\(/i);
  }

  it('invites a person: 201 with the expiry, a mail with a working single-use link, the address verified, no password ever shown', async () => {
    const response = await admin.call('POST', '/admin/users', { account: 'ivy', displayName: 'Ivy Invited', email: 'ivy@example.test', invite: true });
    expect(response.status).toBe(201);
    expect(response.body.user).toMatchObject({ account: 'ivy', email: 'ivy@example.test', emailVerified: false });
    const expiresAt = Date.parse(response.body.invitation.expiresAt);
    expect(expiresAt - ctx.clock.now()).toBe(72 * 3600 * 1000);
    expect(response.text).not.toMatch(/invitation\/[0-9A-Za-z]{43}/);
    // Invited and no password yet: no password signs in.
    expect((await createAgentClient(ctx.app).call('POST', '/auth/login', { account: 'ivy', password: 'any password at all' })).status).toBe(401);

    const mail = await mailTo('ivy@example.test', /invited/);
    expectPlainAndHtml(mail);
    const token = linkToken(mail, ISSUER, '/account/invitation/');
    const form = await page('GET', `/account/invitation/${token}`);
    expect(form.statusCode).toBe(200);
    expectStrictPage(form);
    expect(form.body).toMatch(/<input id="newPassword" name="newPassword" type="password"/);
    expect((await userOf('ivy')).emailVerified).toBe(false);

    const tooShort = await page('POST', `/account/invitation/${token}`, { newPassword: 'short' });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.body).toContain('at least 8 characters');

    const done = await page('POST', `/account/invitation/${token}`, { newPassword: NEW_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Your password is set');
    expect((await userOf('ivy')).emailVerified).toBe(true);
    expect((await createAgentClient(ctx.app).login('ivy', NEW_PASSWORD)).status).toBe(200);

    for (const method of ['GET', 'POST'] as const) {
      const again = await page(method, `/account/invitation/${token}`, method === 'POST' ? { newPassword: 'yet another passphrase' } : undefined);
      expect(again.statusCode).toBe(410);
      expect(again.body).toContain('This link was already used');
    }
    expect((await createAgentClient(ctx.app).login('ivy', NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an invitation without an address or with a password, and an unknown link with a clear page', async () => {
    const noEmail = await admin.call('POST', '/admin/users', { account: 'nomail', displayName: 'No Mail', invite: true });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.field_errors.email).toMatch(/required/);
    const withPassword = await admin.call('POST', '/admin/users', { account: 'pw', displayName: 'Pw', email: 'pw@example.test', password: PASSWORD, invite: true });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.field_errors.password).toMatch(/absent/);
    expect(await ctx.services.users.findByAccount('nomail')).toBeNull();
    const unknown = await page('GET', `/account/invitation/${'A'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This link does not work');
  });

  it('resets a forgotten password: one answer for known and unknown accounts, a 30-minute single-use link, every session ended, a notice', async () => {
    const ritaUser = await ctx.services.users.createUser(cliActor, { account: 'rita', displayName: 'Rita', email: 'rita@example.test', emailVerified: true, password: PASSWORD });
    const rita = createAgentClient(ctx.app);
    await rita.login('rita', PASSWORD);
    // Her OIDC session and a refresh token, as oidc-provider stores them.
    const artifact = (kind: string, id: string) => ({ kind, id, payload: { accountId: ritaUser.subjectId }, grantId: 'grant-rita', uid: null, accountId: ritaUser.subjectId, expiresAt: ctx.clock.now() + 3_600_000 });
    const store = createStore(ctx.db, engine);
    await store.repos.oidcPayloads.upsert(artifact('Session', 'session-rita'));
    await store.repos.oidcPayloads.upsert(artifact('RefreshToken', 'refresh-rita'));

    const form = await page('GET', '/account/forgot');
    expect(form.statusCode).toBe(200);
    expectStrictPage(form);
    expect(form.body).toMatch(/<input id="account" name="account"/);

    const known = await page('POST', '/account/forgot', { account: 'rita' });
    const unknown = await page('POST', '/account/forgot', { account: 'nobody-here' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(known.statusCode).toBe(200);

    const mail = await mailTo('rita@example.test', /Reset/);
    expectPlainAndHtml(mail);
    const token = linkToken(mail, ISSUER, '/account/reset/');
    const reset = await page('GET', `/account/reset/${token}`);
    expect(reset.statusCode).toBe(200);
    expect(reset.body).toMatch(/name="newPassword"/);

    const done = await page('POST', `/account/reset/${token}`, { newPassword: NEW_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect((await rita.call('GET', '/auth/me')).status).toBe(401);
    expect(await store.repos.oidcPayloads.find('Session', 'session-rita', ctx.clock.now())).toBeUndefined();
    expect(await store.repos.oidcPayloads.find('RefreshToken', 'refresh-rita', ctx.clock.now())).toBeUndefined();
    expect((await createAgentClient(ctx.app).call('POST', '/auth/login', { account: 'rita', password: PASSWORD })).status).toBe(401);
    expect((await createAgentClient(ctx.app).login('rita', NEW_PASSWORD)).status).toBe(200);

    const used = await page('POST', `/account/reset/${token}`, { newPassword: 'someone else’s passphrase' });
    expect(used.statusCode).toBe(410);
    expect(used.body).toContain('already used');

    const notice = await mailTo('rita@example.test', /password was changed/);
    expect(notice.text).toContain('rita');
    // Nothing ever goes out for the unknown account.
    expect(smtp.mails.some((m) => m.text.includes('nobody-here'))).toBe(false);
  });

  it('answers a reset request for an unknown account with the same status, body and timing as for a known one', async () => {
    const known = Array.from({ length: 10 }, (_, i) => `known-${i}`);
    for (const account of known) await ctx.services.users.createUser(cliActor, { account, displayName: account, email: `${account}@example.test`, emailVerified: true, password: PASSWORD });
    const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    const bodies = new Set<string>();
    for (let i = 0; i < known.length; i += 1) {
      for (const kind of i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
        const started = performance.now();
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/account/forgot',
          remoteAddress: `198.51.100.${i}`,
          payload: `account=${kind === 'known' ? known[i] : `unknown-${i}`}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        timings[kind].push(performance.now() - started);
        expect(response.statusCode).toBe(200);
        bodies.add(response.body);
      }
    }
    expect(bodies.size).toBe(1);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [knownMedian, unknownMedian] = [median(timings.known), median(timings.unknown)];
    expect(Math.abs(knownMedian - unknownMedian)).toBeLessThan(Math.max(10, 0.5 * Math.min(knownMedian, unknownMedian)));
    await smtp.waitForCount((mail) => /^known-\d@/.test(mail.envelopeTo[0] ?? ''), known.length);
  });

  it('limits reset requests per address (20 an hour, whatever the account) with 429 and Retry-After, never per account', async () => {
    const ask = (account: string) => ctx.app.inject({ method: 'POST', url: '/account/forgot', remoteAddress: '203.0.113.9', payload: `account=${account}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    for (let i = 0; i < 20; i += 1) expect((await ask(i % 2 === 0 ? 'limited-name' : `other-name-${i}`)).statusCode).toBe(200);
    // The account asked for ten times is not blocked elsewhere: only this address is.
    expect((await ctx.app.inject({ method: 'POST', url: '/account/forgot', remoteAddress: '203.0.113.10', payload: 'account=limited-name', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode).toBe(200);
    const refused = await ask('another-name');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many requests');
  });

  it('keeps an earlier reset link working after a new request; refuses an expired and a password-changed one', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'sam', displayName: 'Sam', email: 'sam@example.test', emailVerified: true, password: PASSWORD });
    await page('POST', '/account/forgot', { account: 'sam' });
    const first = linkToken(await mailTo('sam@example.test', /Reset/), ISSUER, '/account/reset/');
    await page('POST', '/account/forgot', { account: 'SAM' });
    const [, secondMail] = await smtp.waitForCount((m) => m.envelopeTo.includes('sam@example.test') && /Reset/.test(m.subject), 2);
    const second = linkToken(secondMail!, ISSUER, '/account/reset/');
    expect(second).not.toBe(first);

    // Anyone may ask for a reset, so a later request must not end the link the person already has.
    const stillLive = await page('GET', `/account/reset/${first}`);
    expect(stillLive.statusCode).toBe(200);
    expect(stillLive.body).toMatch(/name="newPassword"/);

    ctx.clock.advance(31 * 60 * 1000);
    const expired = await page('GET', `/account/reset/${second}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This link has expired');
    expect((await page('POST', `/account/reset/${second}`, { newPassword: NEW_PASSWORD })).statusCode).toBe(410);

    await page('POST', '/account/forgot', { account: 'sam' });
    const third = linkToken((await smtp.waitForCount((m) => m.envelopeTo.includes('sam@example.test') && /Reset/.test(m.subject), 3))[2]!, ISSUER, '/account/reset/');
    const sam = await userOf('sam');
    await ctx.services.users.setPassword(cliActor, sam.subjectId, 'set by an administrator');
    const changed = await page('GET', `/account/reset/${third}`);
    expect(changed.statusCode).toBe(410);
    expect(changed.body).toContain('password was changed');
    expect((await createAgentClient(ctx.app).login('sam', 'set by an administrator')).status).toBe(200);
  });

  it('verifies a changed address through its link; the current address stays until then; GET changes nothing', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'vera', displayName: 'Vera', email: 'old@example.test', emailVerified: true, password: PASSWORD });
    // Changing the address is the person's alone, in the console (DESIGN.md section 14).
    const vera = createConsoleClient(ctx.app);
    await vera.login('vera', PASSWORD);
    expect((await vera.call('GET', '/account/email')).body).toEqual({ email: 'old@example.test', emailVerified: true, pendingEmail: null, mailEnabled: true });
    const changed = await vera.call('POST', '/account/email', { email: 'vera@example.test' });
    expect(changed.status).toBe(202);
    expect(changed.body).toEqual({ email: 'old@example.test', emailVerified: true, pendingEmail: 'vera@example.test' });
    expect(await userOf('vera')).toMatchObject({ email: 'old@example.test', emailVerified: true });
    expect((await vera.call('GET', '/account/email')).body).toEqual({ email: 'old@example.test', emailVerified: true, pendingEmail: 'vera@example.test', mailEnabled: true });
    expect((await vera.call('POST', '/account/email', { email: 'not an address' })).status).toBe(400);

    const token = linkToken(await mailTo('vera@example.test', /Confirm/), ISSUER, '/account/verify-email/');
    const confirmPage = await page('GET', `/account/verify-email/${token}`);
    expect(confirmPage.statusCode).toBe(200);
    expectStrictPage(confirmPage);
    expect(confirmPage.body).toMatch(/<button[^>]*type="submit">Confirm address<\/button>/);
    expect(await userOf('vera')).toMatchObject({ email: 'old@example.test', emailVerified: true });

    const confirmed = await page('POST', `/account/verify-email/${token}`);
    expect(confirmed.statusCode).toBe(200);
    expect(await userOf('vera')).toMatchObject({ email: 'vera@example.test', emailVerified: true });
    expect((await vera.call('GET', '/account/email')).body).toEqual({ email: 'vera@example.test', emailVerified: true, pendingEmail: null, mailEnabled: true });
    expect((await page('POST', `/account/verify-email/${token}`)).statusCode).toBe(410);

    // A newer request replaces the pending address: the earlier link dies, the address in force stays.
    await vera.call('POST', '/account/email', { email: 'vera2@example.test' });
    const pending = linkToken(await mailTo('vera2@example.test', /Confirm/), ISSUER, '/account/verify-email/');
    await vera.call('POST', '/account/email', { email: 'vera3@example.test' });
    expect((await page('POST', `/account/verify-email/${pending}`)).statusCode).toBe(410);
    expect(await userOf('vera')).toMatchObject({ email: 'vera@example.test', emailVerified: true });
    expect((await vera.call('GET', '/account/email')).body).toMatchObject({ pendingEmail: 'vera3@example.test' });
  });

  it('an administrator changing an address makes it unverified unless they mark it verified, audited', async () => {
    const user = await ctx.services.users.createUser(cliActor, { account: 'amy', displayName: 'Amy', email: 'amy@example.test', emailVerified: true, password: PASSWORD });
    const moved = await admin.call('PATCH', `/admin/users/${user.subjectId}`, { email: 'amy@new.example.test' });
    expect(moved.body.user).toMatchObject({ email: 'amy@new.example.test', emailVerified: false });
    const marked = await admin.call('PATCH', `/admin/users/${user.subjectId}`, { email: 'amy@third.example.test', emailVerified: true });
    expect(marked.body.user).toMatchObject({ emailVerified: true });
    const audit = await ctx.db.selectFrom('audit_log').select(['action', 'before_json', 'after_json']).where('target_id', '=', user.subjectId).where('action', '=', 'user.update').execute();
    expect(audit.map((entry) => [JSON.parse(entry.before_json!).emailVerified, JSON.parse(entry.after_json!).emailVerified])).toEqual([[true, false], [false, true]]);
  });

  it('sends a security notice through notify(subjectId, kind)', async () => {
    const user = await ctx.services.users.createUser(cliActor, { account: 'nora', displayName: 'Nora', email: 'nora@example.test', password: PASSWORD });
    expect(await ctx.services.securityNotices.notify(user.subjectId, 'assistant_connected')).toBe(true);
    const mail = await mailTo('nora@example.test', /assistant was connected/);
    expect(mail.text).toContain('nora');
    const silent = await ctx.services.users.createUser(cliActor, { account: 'nomailbox', displayName: 'No mailbox', password: PASSWORD });
    expect(await ctx.services.securityNotices.notify(silent.subjectId, 'second_factor_changed')).toBe(false);
  });
});

describe.each(TEST_ENGINES)('without SMTP_URL on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await createAccounts(ctx.services, ['root'], ['root']);
  });
  afterAll(() => ctx.close());

  it('says so instead of failing: invitations and address changes refused with 400, the forgot page explains', async () => {
    const admin = createAgentClient(ctx.app);
    await admin.login('root', PASSWORD);
    const invited = await admin.call('POST', '/admin/users', { account: 'ivy', displayName: 'Ivy', email: 'ivy@example.test', invite: true });
    expect(invited.status).toBe(400);
    expect(invited.body.error_description).toContain('SMTP_URL');
    expect(await ctx.services.users.findByAccount('ivy')).toBeNull();
    const rootInConsole = createConsoleClient(ctx.app);
    await rootInConsole.login('root', PASSWORD);
    const email = await rootInConsole.call('POST', '/account/email', { email: 'root@example.test' });
    expect(email.status).toBe(400);
    expect(email.body.error_description).toContain('SMTP_URL');
    // My account reads whether mail is on, so the console can say so before anyone tries.
    expect((await admin.call('GET', '/account/email')).body).toMatchObject({ emailVerified: false, mailEnabled: false });
    const forgot = await ctx.app.inject({ method: 'GET', url: '/account/forgot' });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.body).toContain('sends no mail');
    expect(forgot.body).not.toContain('<form');
  });
});

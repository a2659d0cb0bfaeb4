import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createAgentClient, createConsoleClient } from '../api/helpers/api-clients.ts';
import { createAccounts, PASSWORD } from '../api/helpers/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { linkToken, startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';

const ISSUER = 'http://localhost:3000';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

// DESIGN.md section 14, "Email" and "Reset requests": a new address is pending until confirmed, reset
// mail goes only to a verified address, a verified address belongs to one account, and nobody can block
// or end a person's reset by asking in their name.
describe.each(TEST_ENGINES)('credential mail on %s', (engine) => {
  let smtp: SmtpCapture;
  let ctx: TestContext;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    ctx = await createTestContext(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>' });
    await createAccounts(ctx.services, ['root'], ['root']);
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.stop();
  });

  const userOf = async (account: string) => (await ctx.services.users.findByAccount(account))!;
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.envelopeTo.includes(address));
  /** Waits until the worker has sent or dropped every queued mail, so what SMTP holds is final. */
  async function outboxSettled(): Promise<void> {
    for (let i = 0; i < 200; i += 1) {
      const open = await ctx.db.selectFrom('mail_outbox').select('mail_id').where('sent_at', 'is', null).where('dropped_at', 'is', null).execute();
      if (open.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the outbox did not settle');
  }
  const forgot = (account: string, options: { ip?: string; origin?: string; language?: string } = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/account/forgot',
      remoteAddress: options.ip ?? '127.0.0.1',
      payload: `account=${encodeURIComponent(account)}`,
      headers: { ...FORM, ...(options.origin ? { origin: options.origin } : {}), ...(options.language ? { 'accept-language': options.language } : {}) },
    });
  async function signedIn(account: string, email: string, locale?: 'zh-CN') {
    const user = await ctx.services.users.createUser(cliActor, { account, displayName: account, email, emailVerified: true, password: PASSWORD });
    const console = createConsoleClient(ctx.app);
    await console.login(account, PASSWORD);
    if (locale) await ctx.services.accountLocale.setLocale({ subjectId: user.subjectId, isAdmin: false, surface: 'console', ip: null }, locale);
    return { user, console };
  }

  it('changeMyEmail keeps the old address in force and its reset mail, shows the new one pending, and tells the old address in the person\'s language', async () => {
    const { console } = await signedIn('mei', 'mei@old.example.test', 'zh-CN');
    const changed = await console.call('POST', '/account/email', { email: 'mei@new.example.test' });
    expect(changed.status).toBe(202);
    expect(changed.body).toEqual({ email: 'mei@old.example.test', emailVerified: true, pendingEmail: 'mei@new.example.test' });
    expect(await userOf('mei')).toMatchObject({ email: 'mei@old.example.test', emailVerified: true });
    expect((await console.call('GET', '/account/email')).body).toMatchObject({ email: 'mei@old.example.test', emailVerified: true, pendingEmail: 'mei@new.example.test' });

    const notice = await smtp.waitFor((mail) => mail.envelopeTo.includes('mei@old.example.test'));
    expect(notice.subject).toBe('有人为你的 Sesame 账号提交了新的邮箱地址');
    expect(notice.text).toContain('mei@new.example.test');
    expect(notice.text).not.toMatch(/verify-email\//);
    await smtp.waitFor((mail) => mail.envelopeTo.includes('mei@new.example.test') && /verify-email\//.test(mail.text));

    // A reset asked for now goes to the address in force, not to the pending one.
    await forgot('mei');
    await outboxSettled();
    expect(mailsTo('mei@old.example.test').some((mail) => /account\/reset\//.test(mail.text))).toBe(true);
    expect(mailsTo('mei@new.example.test').some((mail) => /account\/reset\//.test(mail.text))).toBe(false);
  });

  it('mails no reset link to an unverified address, with the same answer as for a verified one', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'una', displayName: 'Una', email: 'una@example.test', emailVerified: false, password: PASSWORD });
    await ctx.services.users.createUser(cliActor, { account: 'vic', displayName: 'Vic', email: 'vic@example.test', emailVerified: true, password: PASSWORD });
    const unverified = await forgot('una', { ip: '198.51.100.40' });
    const verified = await forgot('vic', { ip: '198.51.100.41' });
    expect(unverified.statusCode).toBe(200);
    expect(unverified.body).toBe(verified.body);
    await smtp.waitFor((mail) => mail.envelopeTo.includes('vic@example.test'));
    await outboxSettled();
    expect(mailsTo('una@example.test')).toEqual([]);
    const dropped = await ctx.db.selectFrom('mail_outbox').select(['last_error', 'dropped_at']).where('kind', '=', 'password_reset').where('recipient', 'is', null).execute();
    expect(dropped.some((row) => row.dropped_at !== null && /not verified/.test(row.last_error ?? ''))).toBe(true);
  });

  it('refuses to confirm an address another account holds verified: a clear 409 page in both languages, nothing changed', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'holder', displayName: 'Holder', email: 'shared@example.test', emailVerified: true, password: PASSWORD });
    const { console } = await signedIn('taker', 'taker@example.test');
    // The request answers as for any address: it tells nothing about other accounts.
    const asked = await console.call('POST', '/account/email', { email: 'Shared@example.test' });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ email: 'taker@example.test', emailVerified: true, pendingEmail: 'Shared@example.test' });
    const token = linkToken(await smtp.waitFor((mail) => mail.envelopeTo.some((to) => to.toLowerCase() === 'shared@example.test') && /verify-email\//.test(mail.text)), ISSUER, '/account/verify-email/');

    const refused = await ctx.app.inject({ method: 'POST', url: `/account/verify-email/${token}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('already the verified address of another Sesame account');
    const refusedZh = await ctx.app.inject({ method: 'POST', url: `/account/verify-email/${token}`, headers: { 'accept-language': 'zh-CN' } });
    expect(refusedZh.statusCode).toBe(409);
    expect(refusedZh.body).toContain('<html lang="zh-CN"');
    expect(refusedZh.body).toContain('已是另一个 Sesame 账号验证过的地址');
    expect(await userOf('taker')).toMatchObject({ email: 'taker@example.test', emailVerified: true });
    expect(await userOf('holder')).toMatchObject({ email: 'shared@example.test', emailVerified: true });
  });

  it('an administrator cannot make a second account hold a verified address (400, field email), and may set it unverified', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'first', displayName: 'First', email: 'one@example.test', emailVerified: true, password: PASSWORD });
    const admin = createAgentClient(ctx.app);
    await admin.login('root', PASSWORD);
    const created = await admin.call('POST', '/admin/users', { account: 'second', displayName: 'Second', email: 'ONE@example.test', emailVerified: true, password: PASSWORD });
    expect(created.status).toBe(400);
    expect(created.body.field_errors.email).toMatch(/verified address of another account/);
    expect(await ctx.services.users.findByAccount('second')).toBeNull();
    const unverified = await admin.call('POST', '/admin/users', { account: 'second', displayName: 'Second', email: 'one@example.test', emailVerified: false, password: PASSWORD });
    expect(unverified.status).toBe(201);
    const patched = await admin.call('PATCH', `/admin/users/${unverified.body.user.subjectId}`, { emailVerified: true });
    expect(patched.status).toBe(400);
    expect(patched.body.field_errors.email).toMatch(/verified address of another account/);
    const moved = await admin.call('PATCH', `/admin/users/${unverified.body.user.subjectId}`, { email: 'two@example.test', emailVerified: true });
    expect(moved.status).toBe(200);
    expect(moved.body.user).toMatchObject({ email: 'two@example.test', emailVerified: true });
  });

  it('an accepted invitation leaves an address another account holds verified unverified', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'keeper', displayName: 'Keeper', email: 'kept@example.test', emailVerified: true, password: PASSWORD });
    const admin = createAgentClient(ctx.app);
    await admin.login('root', PASSWORD);
    expect((await admin.call('POST', '/admin/users', { account: 'newcomer', displayName: 'Newcomer', email: 'kept@example.test', invite: true })).status).toBe(201);
    const token = linkToken(await smtp.waitFor((mail) => mail.envelopeTo.includes('kept@example.test') && /invitation\//.test(mail.text)), ISSUER, '/account/invitation/');
    const accepted = await ctx.app.inject({ method: 'POST', url: `/account/invitation/${token}`, payload: 'newPassword=newcomer+picks+one', headers: FORM });
    expect(accepted.statusCode).toBe(200);
    expect(await userOf('newcomer')).toMatchObject({ email: 'kept@example.test', emailVerified: false });
    expect(await userOf('keeper')).toMatchObject({ email: 'kept@example.test', emailVerified: true });
  });

  it('strangers asking in the person\'s name block nothing: 3 reset mails an hour at most, every link stays usable, the person\'s request answers alike', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'pia', displayName: 'Pia', email: 'pia@example.test', emailVerified: true, password: PASSWORD });
    const anonymous = [];
    for (let i = 0; i < 6; i += 1) anonymous.push(await forgot('pia', { ip: '203.0.113.66', origin: 'https://attacker.example' }));
    expect(anonymous.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const own = await forgot('pia', { ip: '192.0.2.7' });
    expect(own.statusCode).toBe(200);
    expect(own.body).toBe(anonymous[0]!.body);
    await outboxSettled();
    const resets = mailsTo('pia@example.test').filter((mail) => /account\/reset\//.test(mail.text));
    expect(resets).toHaveLength(3);

    // The first link, mailed before every later request, still works.
    const first = linkToken(resets[0]!, ISSUER, '/account/reset/');
    const done = await ctx.app.inject({ method: 'POST', url: `/account/reset/${first}`, payload: 'newPassword=pia+chose+this+one', headers: FORM });
    expect(done.statusCode).toBe(200);
    expect((await createAgentClient(ctx.app).login('pia', 'pia chose this one')).status).toBe(200);

    // An hour after the first mails, the account gets mail again.
    ctx.clock.advance(61 * 60 * 1000);
    await forgot('pia', { ip: '192.0.2.7' });
    await outboxSettled();
    expect(mailsTo('pia@example.test').filter((mail) => /account\/reset\//.test(mail.text))).toHaveLength(4);
  });

  it('refuses the 21st reset request from one address within the hour, with Retry-After', async () => {
    for (let i = 0; i < 20; i += 1) expect((await forgot(`nobody-${i}`, { ip: '203.0.113.77' })).statusCode).toBe(200);
    const refused = await forgot('nobody-21', { ip: '203.0.113.77' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await forgot('nobody-21', { ip: '203.0.113.78' })).statusCode).toBe(200);
  });
});

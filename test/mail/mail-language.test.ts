import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { cliActor } from '../../src/domain/actor.ts';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { createAccounts, PASSWORD } from '../api/helpers/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { linkToken, startSmtpCapture, type CapturedMail, type SmtpCapture } from '../helpers/smtp-capture.ts';

const ISSUER = 'http://localhost:3000';

/** Mail in the person's saved language (DESIGN section 12), else English; an invitation speaks the inviting administrator's. */
describe.each(TEST_ENGINES)('mail in the person\'s language on %s', (engine) => {
  let smtp: SmtpCapture;
  let ctx: TestContext;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    ctx = await createTestContext(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>' });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.stop();
  });

  const mailTo = (address: string) => smtp.waitFor((mail) => mail.envelopeTo.includes(address));
  const asPerson = (subjectId: string): Actor => ({ subjectId, isAdmin: false, surface: 'console', ip: null });
  const forgot = (account: string) =>
    ctx.app.inject({ method: 'POST', url: '/account/forgot', payload: `account=${account}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  function expectChinese(mail: CapturedMail) {
    expect(mail.html).toMatch(/<html lang="zh-CN">/);
    expect(mail.text).toMatch(/[\u4e00-\u9fff]/);
    expect(mail.html).not.toMatch(/<img|<script|url\(/i);
  }

  it('sends a reset mail in Chinese to a person who saved zh-CN, and its page answers in Chinese too', async () => {
    const lan = await ctx.services.users.createUser(cliActor, { account: 'lan', displayName: '兰', email: 'lan@example.test', emailVerified: true, password: PASSWORD });
    await ctx.services.accountLocale.setLocale(asPerson(lan.subjectId), 'zh-CN');
    expect((await forgot('lan')).statusCode).toBe(200);

    const mail = await mailTo('lan@example.test');
    expect(mail.subject).toBe('重置你的 Sesame 密码');
    expect(mail.text).toContain('兰，你好：');
    expect(mail.text).toContain('有效期 30 分钟');
    expectChinese(mail);

    // No Accept-Language at all: the saved language decides the link's page.
    const token = linkToken(mail, ISSUER, '/account/reset/');
    const form = await ctx.app.inject({ method: 'GET', url: `/account/reset/${token}` });
    expect(form.body).toContain('<html lang="zh-CN">');
    expect(form.body).toContain('设置新密码');
    const tooShort = await ctx.app.inject({ method: 'POST', url: `/account/reset/${token}`, payload: 'newPassword=short', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.body).toContain('新密码至少需要 8 个字符。');
  });

  it('sends English to a person with no saved language, whatever the requesting browser speaks', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'ed', displayName: 'Ed', email: 'ed@example.test', emailVerified: true, password: PASSWORD });
    await ctx.app.inject({ method: 'POST', url: '/account/forgot', payload: 'account=ed', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'zh-CN' } });
    const mail = await mailTo('ed@example.test');
    expect(mail.subject).toBe('Reset your Sesame password');
    expect(mail.html).toMatch(/<html lang="en">/);
    expect(mail.text).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('writes an invitation in the inviting administrator\'s saved language, and a security notice in the person\'s', async () => {
    const { root } = await createAccounts(ctx.services, ['root'], ['root']);
    await ctx.services.accountLocale.setLocale(asPerson(root.subjectId), 'zh-CN');
    const admin = createAgentClient(ctx.app);
    await admin.login('root', PASSWORD);
    expect((await admin.call('POST', '/admin/users', { account: 'xiao', displayName: '小明', email: 'xiao@example.test', invite: true })).status).toBe(201);
    const invitation = await mailTo('xiao@example.test');
    expect(invitation.subject).toBe('邀请你使用 Sesame');
    expect(invitation.text).toContain('管理员为你创建了 Sesame 账号：xiao。');
    expectChinese(invitation);

    const mei = await ctx.services.users.createUser(cliActor, { account: 'mei', displayName: 'Mei', email: 'mei@example.test', password: PASSWORD });
    await ctx.services.accountLocale.setLocale(asPerson(mei.subjectId), 'zh-CN');
    await ctx.services.securityNotices.notify(mei.subjectId, 'password_changed');
    const notice = await mailTo('mei@example.test');
    expect(notice.subject).toBe('你的 Sesame 密码已修改');
    expectChinese(notice);
  });
});

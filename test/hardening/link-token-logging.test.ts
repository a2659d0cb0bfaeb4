import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createAgentClient, createConsoleClient } from '../api/helpers/api-clients.ts';
import { createAccounts, PASSWORD } from '../api/helpers/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { linkToken, startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';

const ISSUER = 'http://localhost:3000';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

// A mailed link's token is the whole credential: at LOG_LEVEL=debug the request log shows every path,
// so the invitation, reset and verification paths must appear there without their token.
describe.each(TEST_ENGINES)('mailed link tokens in the debug log on %s', (engine) => {
  let smtp: SmtpCapture;
  let ctx: TestContext;
  const lines: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    ctx = await createTestContext(engine, { LOG_LEVEL: 'debug', SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>' }, { logStream: { write: (line: string) => void lines.push(line) } });
    await createAccounts(ctx.services, ['root'], ['root']);
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.stop();
  });

  it('logs the pages of invitation, reset and verify-email links without their tokens', async () => {
    const admin = createAgentClient(ctx.app);
    await admin.login('root', PASSWORD);
    await admin.call('POST', '/admin/users', { account: 'ina', displayName: 'Ina', email: 'ina@example.test', invite: true });
    const invitation = linkToken(await smtp.waitFor((mail) => mail.envelopeTo.includes('ina@example.test')), ISSUER, '/account/invitation/');

    await ctx.services.users.createUser(cliActor, { account: 'reo', displayName: 'Reo', email: 'reo@example.test', emailVerified: true, password: PASSWORD });
    await ctx.app.inject({ method: 'POST', url: '/account/forgot', payload: 'account=reo', headers: FORM });
    const reset = linkToken(await smtp.waitFor((mail) => mail.envelopeTo.includes('reo@example.test') && /account\/reset\//.test(mail.text)), ISSUER, '/account/reset/');

    const reo = createConsoleClient(ctx.app);
    await reo.login('reo', PASSWORD);
    await reo.call('POST', '/account/email', { email: 'reo@new.example.test' });
    const verify = linkToken(await smtp.waitFor((mail) => mail.envelopeTo.includes('reo@new.example.test')), ISSUER, '/account/verify-email/');

    for (const [path, token] of [['/account/invitation/', invitation], ['/account/reset/', reset], ['/account/verify-email/', verify]] as const) {
      expect((await ctx.app.inject({ url: `${path}${token}?ui_locales=en` })).statusCode).toBe(200);
    }
    expect((await ctx.app.inject({ method: 'POST', url: `/account/reset/${reset}`, payload: 'newPassword=reo+chose+a+new+one', headers: FORM })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'POST', url: `/account/verify-email/${verify}` })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'POST', url: `/account/invitation/${invitation}`, payload: 'newPassword=ina+chose+her+own', headers: FORM })).statusCode).toBe(200);

    const log = lines.join('');
    // The requests were logged, with the path up to the token.
    expect(log).toContain('"url":"/account/reset/[redacted]"');
    expect(log).toContain('"url":"/account/invitation/[redacted]"');
    expect(log).toContain('"url":"/account/verify-email/[redacted]"');
    for (const token of [invitation, reset, verify]) expect(log, `a log line holds the token ${token.slice(0, 6)}...`).not.toContain(token);
  });
});

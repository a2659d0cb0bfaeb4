import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { linkToken, startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';
import { runSesame } from './run-sesame.ts';

describe.each(TEST_ENGINES)('sesame user invite on %s', (engine) => {
  let smtp: SmtpCapture;
  let server: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // A running Sesame whose outbox worker sends what the command line queues.
    server = await createTestContext(engine, { SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it('creates the person without a password and the running server mails them the link', async () => {
    const run = await runSesame(['user', 'invite', '--account', 'cli-ivy', '--display-name', 'Ivy', '--email', 'cli-ivy@example.test'], {
      databaseUrl: server.databaseUrl,
      env: { SMTP_URL: smtp.url },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { subjectId: string; account: string; invitationExpiresAt: string };
    expect(printed.account).toBe('cli-ivy');
    expect(Date.parse(printed.invitationExpiresAt) - Date.now()).toBeGreaterThan(71 * 3600 * 1000);
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes('cli-ivy@example.test'));
    const token = linkToken(mail, server.config.issuer, '/account/invitation/');
    const done = await server.app.inject({ method: 'POST', url: `/account/invitation/${token}`, payload: 'newPassword=chosen+by+ivy+herself', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.statusCode).toBe(200);
    expect(await server.services.users.authenticate('cli-ivy', 'chosen by ivy herself', { ip: null, surface: 'management' })).toMatchObject({ account: 'cli-ivy' });
  });

  it('refuses without SMTP_URL and says why, creating nobody', async () => {
    const run = await runSesame(['user', 'invite', '--account', 'cli-nomail', '--display-name', 'No', '--email', 'no@example.test'], { databaseUrl: server.databaseUrl });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('SMTP_URL');
    expect(await server.services.users.findByAccount('cli-nomail')).toBeNull();
  });
});

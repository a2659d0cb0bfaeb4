import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { linkToken, startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { signInHere } from './support/console-actions.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// My email address in the console, with outgoing mail to a real SMTP server: a new address waits for
// its mailed link while the current one stays in force, and the page shows both.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: My account email address (SQLite, Chromium, SMTP)', () => {
  let smtp: SmtpCapture;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
  });
  afterAll(async () => {
    await smtp?.stop();
  });
  const suite = useConsoleSuite(() => ({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>' } }));

  test('change my address: the current one stays verified and the new one shows as pending until the mailed link is confirmed', async () => {
    const password = 'vera-password-e2e';
    await suite.server.services.users.createUser(systemActor, { account: 'vera', displayName: 'Vera Verified', email: 'vera@example.test', emailVerified: true, password });
    const { page, context, problems } = await openWatchedPage(suite.browser, DESKTOP);
    await page.goto(suite.server.consoleUrl('/account'));
    await page.waitForURL(/\/console\/sign-in/);
    await signInHere(page, 'vera', password);
    const email = page.getByRole('region', { name: 'My email address' });
    await email.getByText('vera@example.test').waitFor();
    await email.getByText('verified', { exact: true }).waitFor();
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await seriousAccessibilityProblems(page), 'axe on my-account-email').toEqual([]);
      await saveScreenshot(page, 'my-account-email');
    }
    await page.setViewportSize(DESKTOP);

    await email.getByLabel('New email address').fill('not an address');
    await email.getByRole('button', { name: 'Save and send verification link' }).click();
    await email.getByText('must be an email address').waitFor();
    await email.getByLabel('New email address').fill('vera@new.example.test');
    await email.getByRole('button', { name: 'Save and send verification link' }).click();
    await email.getByRole('status').getByText('A verification link is on its way to vera@new.example.test').waitFor();
    await email.getByText('Waiting for confirmation', { exact: true }).waitFor();
    await email.getByText('vera@new.example.test', { exact: true }).waitFor();
    await email.getByText('vera@example.test', { exact: true }).waitFor();
    await email.getByText('verified', { exact: true }).waitFor();
    expect(await suite.server.services.users.findByAccount('vera')).toMatchObject({ email: 'vera@example.test', emailVerified: true });
    expect(await seriousAccessibilityProblems(page), 'axe on my-account-email with a pending address').toEqual([]);
    // The current address is told of the request.
    const notice = await smtp.waitFor((m) => m.envelopeTo.includes('vera@example.test'));
    expect(notice.text).toContain('vera@new.example.test');

    const mail = await smtp.waitFor((m) => m.envelopeTo.includes('vera@new.example.test'));
    const token = linkToken(mail, suite.server.issuer, '/account/verify-email/');
    await page.goto(`${suite.server.issuer}/account/verify-email/${token}`);
    await page.getByRole('button', { name: 'Confirm address' }).click();
    await page.goto(suite.server.consoleUrl('/account'));
    await email.getByText('vera@new.example.test', { exact: true }).waitFor();
    await email.getByText('verified', { exact: true }).waitFor();
    expect(await email.getByText('Waiting for confirmation', { exact: true }).count()).toBe(0);
    expect(await email.getByText('vera@example.test', { exact: true }).count()).toBe(0);

    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

import { describe, expect, test } from 'vitest';
import { t as say, type MessageKey } from '../../src/i18n/catalogues.ts';
import type { Locale } from '../../src/i18n/locales.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage } from './support/browser.ts';
import { focused, tabTo } from './support/keyboard.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

const WINDOW_SECONDS = 60;

// DESIGN.md section 14: a person-only action in a console session that proved the person longer than
// REAUTH_WINDOW_SECONDS ago asks for the password (or a code) in a dialog, then completes the action.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: proving it is you again before changing a credential (SQLite, Chromium)', () => {
  const suite = useConsoleSuite({ env: { REAUTH_WINDOW_SECONDS: String(WINDOW_SECONDS) } });

  test.each(['en', 'zh-CN'] as const)('in %s, with the keyboard alone: the stale session asks for the password, then the authenticator is added', async (locale: Locale) => {
    const text = (key: MessageKey) => say(locale, key);
    const person = await suite.server.createUser(`reauth-${locale.toLowerCase()}`, 'Rea Auth');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await context.addCookies([{ name: 'sesame_lang', value: locale, url: suite.server.issuer }]);

    await page.goto(suite.server.consoleUrl('/sign-in'));
    await tabTo(page, `input:${text('console.signIn.account')}`);
    await page.keyboard.type(person.account);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(`input:${text('console.signIn.password')}`);
    await page.keyboard.type(person.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));

    await page.goto(suite.server.consoleUrl('/account/security'));
    await page.getByRole('heading', { level: 2, name: text('console.accountFactors.title') }).waitFor();
    // Longer ago than the window: the sign-in no longer counts as a recent proof.
    suite.server.clock.advance((WINDOW_SECONDS + 1) * 1000);

    await tabTo(page, `button:${text('console.accountFactors.addAuthenticator')}`, 40);
    await page.keyboard.press('Enter');
    const adding = page.getByRole('dialog', { name: text('console.addAuthenticator.title') });
    await adding.waitFor();
    expect(await focused(page)).toBe(`input:${text('console.addAuthenticator.name')}`);
    await page.keyboard.type('Phone');
    await page.keyboard.press('Enter');

    const proving = page.getByRole('dialog', { name: text('console.reauthenticate.title') });
    await proving.waitFor();
    expect(await focused(page)).toBe(`input:${text('console.reauthenticate.password')}`);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, `console-${locale}-reauthenticate`);

    // A wrong password is said in the dialog, which stays open.
    await page.keyboard.type('not my password');
    await page.keyboard.press('Enter');
    await proving.getByRole('alert').waitFor();
    expect(await proving.isVisible()).toBe(true);
    expect(await page.locator('[name="currentPassword"]').inputValue()).toBe('');

    await page.keyboard.press('Shift+Tab');
    await tabTo(page, `input:${text('console.reauthenticate.password')}`);
    await page.keyboard.type(person.password);
    await page.keyboard.press('Enter');
    await proving.waitFor({ state: 'hidden' });
    // The action the person asked for went through after all.
    await adding.getByRole('img', { name: text('console.addAuthenticator.qrLabel') }).waitFor();
    expect(await adding.getByLabel(text('console.addAuthenticator.secret')).inputValue()).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    const pending = await suite.server.db.selectFrom('account_factors').select('status').where('subject_id', '=', person.subjectId).execute();
    expect(pending).toEqual([{ status: 'pending' }]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('cancelling the dialog leaves the action undone and says why', async () => {
    const person = await suite.server.createUser('reauth-cancel', 'Can Cel');
    const { page, context } = await openWatchedPage(suite.browser);
    await page.goto(suite.server.consoleUrl('/sign-in'));
    await page.getByLabel('Account').fill(person.account);
    await page.getByLabel('Password').fill(person.password);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
    await page.goto(suite.server.consoleUrl('/account/security'));
    await page.getByRole('heading', { level: 2, name: 'Second factors' }).waitFor();
    suite.server.clock.advance((WINDOW_SECONDS + 1) * 1000);

    await tabTo(page, 'button:Add an authenticator app', 40);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Add an authenticator app' }).waitFor();
    expect(await focused(page)).toBe('input:Name');
    await page.keyboard.type('Phone');
    await page.keyboard.press('Enter');
    const proving = page.getByRole('dialog', { name: 'Confirm it is you' });
    await proving.waitFor();
    await page.keyboard.press('Escape');
    await proving.waitFor({ state: 'hidden' });
    const adding = page.getByRole('dialog', { name: 'Add an authenticator app' });
    await adding.getByRole('alert').waitFor();
    expect(await adding.getByRole('alert').textContent()).toContain('Nothing was changed: to change how you sign in, confirm it is you again.');
    expect(await suite.server.db.selectFrom('account_factors').select('status').where('subject_id', '=', person.subjectId).execute()).toEqual([]);
    await context.close();
  });
});

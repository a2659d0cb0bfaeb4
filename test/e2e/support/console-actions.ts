import type { Page } from 'playwright-core';

/** Signs in on the console's sign-in page (the page must be showing it) and waits for the page behind it. */
export async function signInHere(page: Page, account: string, password: string): Promise<void> {
  await page.getByLabel('Account').fill(account);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
}

export async function signIn(page: Page, consoleUrl: string, account: string, password: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.waitForURL(/\/console\/sign-in/);
  await signInHere(page, account, password);
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
}

export async function openProject(page: Page, name: string): Promise<string> {
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  const match = /\/projects\/([^/]+)/.exec(new URL(page.url()).pathname);
  if (!match?.[1]) throw new Error(`not on a project page: ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/** The text of every button on the page, for checking which controls a role is offered. */
export async function buttonNames(page: Page): Promise<string[]> {
  return page.getByRole('button').evaluateAll((buttons) => buttons.map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim()));
}

/** Reads the text of the page, including the values of form fields (which innerHTML may not show). */
export async function everythingOnThePage(page: Page): Promise<string> {
  return page.evaluate(() => {
    const values = [...document.querySelectorAll('input, textarea, select')].map((element) => (element as HTMLInputElement).value);
    return `${document.documentElement.outerHTML}\n${values.join('\n')}`;
  });
}

/** Follows one of a project's section tabs (Clients, Members, Audit log, Settings). */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

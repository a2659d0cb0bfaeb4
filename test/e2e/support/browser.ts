import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.SESAME_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Script errors, failed same-page loads and Content-Security-Policy violations seen so far. */
  problems: string[];
  /** Every response body of the management API this page received, in order. */
  apiBodies: string[];
}

/** A page in its own browser context (its own cookies), watched for anything the console should never do. */
export async function openWatchedPage(browser: Browser, viewport: { width: number; height: number } = DESKTOP): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
  // Fail within the test's own time limit, naming the locator that was never found.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  const apiBodies: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The browser logs every 4xx answer; the console expects some (409 conflicts, 401 after expiry, 404 lookups).
    if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('response', async (response) => {
    if (!response.url().includes('/api/management/')) return;
    try {
      apiBodies.push(await response.text());
    } catch {
      // A body that is gone (navigation) cannot have carried anything we check for.
    }
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, context, problems, apiBodies };
}

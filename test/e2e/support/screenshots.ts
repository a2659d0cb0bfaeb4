import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where the browser tests leave pictures of each console page for people to look at (gitignored). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-artifacts/screenshots/', import.meta.url));

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize();
  const file = `${SCREENSHOT_DIR}${name}-${viewport?.width ?? 0}x${viewport?.height ?? 0}.png`;
  // A modal dialog's backdrop covers the viewport only, so a dialog is pictured as the person sees it.
  const dialogOpen = await page.evaluate(() => document.querySelector('dialog[open]') !== null);
  await page.screenshot({ path: file, fullPage: !dialogOpen });
  return file;
}

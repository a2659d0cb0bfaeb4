import type { Page } from 'playwright-core';

/** What has focus, described the way a screen reader would name it. */
export async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'body';
    const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
    return `${element.tagName.toLowerCase()}:${(label ?? element.getAttribute('aria-label') ?? element.textContent ?? '').trim()}`;
  });
}

/** Presses Tab until focus reaches `wanted` (as `focused` names it); fails naming where focus is instead. */
export async function tabTo(page: Page, wanted: string, limit = 25): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    if ((await focused(page)) === wanted) return;
  }
  throw new Error(`Tab never reached ${wanted}; focus is on ${await focused(page)}`);
}

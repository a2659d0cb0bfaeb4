import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startConsoleServer, type ConsoleServer } from './console-server.ts';

export interface ConsoleSuite {
  readonly server: ConsoleServer;
  readonly browser: Browser;
}

/** The console on SQLite and a Chromium for the calling suite: started before its tests, stopped after them. */
export function useConsoleSuite(): ConsoleSuite {
  let server: ConsoleServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('useConsoleSuite: the server exists only inside the suite\'s tests');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('useConsoleSuite: the browser exists only inside the suite\'s tests');
      return browser;
    },
  };
}

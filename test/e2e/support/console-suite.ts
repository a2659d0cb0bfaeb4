import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { startConsoleServer, type ConsoleServer, type ConsoleServerOptions } from './console-server.ts';

export interface ConsoleSuite {
  readonly server: ConsoleServer;
  readonly browser: Browser;
}

/**
 * The console (on SQLite unless told) and a Chromium for the calling suite: started before its tests,
 * stopped after them. A suite's own `beforeAll`, declared after this call, runs once both are up;
 * options that depend on something the suite starts first (a mail server) are given as a function.
 */
export function useConsoleSuite(options: ConsoleServerOptions | (() => ConsoleServerOptions) = {}): ConsoleSuite {
  let server: ConsoleServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startConsoleServer(typeof options === 'function' ? options() : options);
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

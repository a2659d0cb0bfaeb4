import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Scope } from '../../src/domain/clients.ts';
import type { Engine } from '../../src/storage/database.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { setUpOidcFixture, type OidcFixture, type RelyingParty } from './oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from './oidc-server.ts';
import { startRegisteredRelyingParty, type RegisteredRelyingParty } from './relying-party-pages.ts';

export interface SignInSuite {
  readonly server: OidcTestServer;
  readonly fixture: OidcFixture;
  readonly browser: Browser;
  /** The relying party's pages, registered as a web client of the fixture's project. */
  readonly rp: RelyingParty;
}

/**
 * For the suites that sign in at a relying party with Chromium: Sesame with the protocol fixture, the
 * relying party's pages registered as a web client, and a browser; started before the suite's tests,
 * stopped after them. A suite's own `beforeAll`, declared after this call, runs once all are up.
 */
export function useSignInSuite(options: { engine: Engine; issuerHost?: 'localhost'; relyingParty: { displayName: string; scopes: Scope[] } }): SignInSuite {
  let server: OidcTestServer | undefined;
  let fixture: OidcFixture | undefined;
  let relyingParty: RegisteredRelyingParty | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startOidcTestServer(options.engine, {}, options.issuerHost ? { issuerHost: options.issuerHost } : {});
    fixture = await setUpOidcFixture(server);
    relyingParty = await startRegisteredRelyingParty(server.services, fixture.adminActor, fixture.projectId, options.relyingParty);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await relyingParty?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useSignInSuite: the servers and the browser exist only inside the suite\'s tests');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get fixture() {
      return started(fixture);
    },
    get browser() {
      return started(browser);
    },
    get rp() {
      return started(relyingParty).rp;
    },
  };
}

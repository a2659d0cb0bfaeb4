import { Browser, codeFromCallback, openLoginPage, signedInBrowser, type PendingLogin } from '../browser.ts';
import { HttpConnection } from '../http-connection.ts';
import { ProtocolError } from '../protocol-error.ts';
import type { ScenarioDefinition } from '../scenario.ts';
import { reusable } from '../reuse-across-measurements.ts';
import { connectionsFor, inParallel, minterCount, oidcFixtureOf, Pool, SIGN_IN_SCOPE } from './shared.ts';

/**
 * Scenario 4: the login page's form post with the correct password, through to the code. The
 * authorization requests and login pages are opened before the timed phase; an operation is the
 * form post and the redirects that follow it up to the relying party's redirect URI.
 */
export const passwordSignIn: ScenarioDefinition = {
  id: 'password-sign-in',
  async create(target, concurrency) {
    const fixture = oidcFixtureOf(target);
    const connections = connectionsFor(target, concurrency);
    const openers = Array.from({ length: minterCount(concurrency) }, () => new HttpConnection(target.baseUrl));
    const pool = new Pool<PendingLogin>();
    // One sign-in with consent first: the timed ones then find the person's consent remembered, as a returning user does.
    await reusable(target, 'consent given', 1, () => signedInBrowser(openers[0]!, fixture, SIGN_IN_SCOPE));
    return {
      pooled: true,
      async prepare(operations) {
        pool.clear();
        await inParallel(operations, openers.length, async (worker) => {
          pool.add(await openLoginPage(new Browser(openers[worker]!), fixture, SIGN_IN_SCOPE));
        });
      },
      async operate(vu) {
        const pending = pool.take();
        if (!pending) return false;
        const browser = new Browser(connections[vu]!, pending.jar);
        let response = await browser.postForm(pending.action, { csrf: pending.csrf, account: fixture.person.account, password: fixture.person.password });
        // Back to the provider (/auth/:uid) until it redirects to the relying party.
        for (let hop = 0; hop < 4; hop += 1) {
          const next = response.status >= 300 && response.status < 400 && response.headers.location ? new URL(response.headers.location, fixture.baseUrl) : undefined;
          if (!next || next.origin !== fixture.baseUrl) break;
          response = await browser.get(`${next.pathname}${next.search}`);
        }
        if (response.status === 200) throw new ProtocolError('sign-in stopped on a page instead of redirecting with a code', response);
        codeFromCallback(fixture, response, pending.request);
        return true;
      },
      close() {
        for (const connection of [...connections, ...openers]) connection.close();
      },
    };
  },
};

import { authorizationRequest, Browser, codeFromCallback, redeemCode, signedInBrowser } from '../browser.ts';
import { reusable } from '../reuse-across-measurements.ts';
import { ProtocolError, expectStatus } from '../protocol-error.ts';
import type { ScenarioDefinition } from '../scenario.ts';
import { connectionsFor, oidcFixtureOf, SIGN_IN_SCOPE } from './shared.ts';

/**
 * Scenario 3: single sign-on. A signed-in person whose consent is remembered goes /auth -> code
 * -> /token -> /userinfo; one operation is the whole flow (three requests).
 */
export const ssoFlow: ScenarioDefinition = {
  id: 'sso-flow',
  async create(target, concurrency) {
    const fixture = oidcFixtureOf(target);
    const connections = connectionsFor(target, concurrency);
    const jars = await reusable(target, 'sso sessions', concurrency, async (i) => (await signedInBrowser(connections[i % concurrency]!, fixture, SIGN_IN_SCOPE)).jar);
    const browsers = connections.map((connection, vu) => new Browser(connection, jars[vu]));
    return {
      pooled: false,
      async prepare() {},
      async operate(vu) {
        const browser = browsers[vu]!;
        const request = authorizationRequest(fixture, SIGN_IN_SCOPE);
        const code = codeFromCallback(fixture, await browser.get(request.path), request);
        const tokens = await redeemCode(browser.connection, fixture, code, request);
        if (!tokens.id_token) throw new ProtocolError('code exchange without an ID token');
        const userinfo = await browser.connection.send({ path: '/userinfo', headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' } });
        expectStatus(userinfo, 200, '/userinfo');
        const claims = JSON.parse(userinfo.body) as { sub?: unknown; email?: unknown };
        if (typeof claims.sub !== 'string' || typeof claims.email !== 'string') throw new ProtocolError('userinfo without sub and email', userinfo);
        return true;
      },
      close() {
        for (const connection of connections) connection.close();
      },
    };
  },
};

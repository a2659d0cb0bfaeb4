import { authorizationRequest, codeFromCallback, redeemCode, signedInBrowser, type AuthorizationRequest, type Browser } from '../browser.ts';
import { HttpConnection } from '../http-connection.ts';
import { ProtocolError } from '../protocol-error.ts';
import type { ScenarioDefinition } from '../scenario.ts';
import { connectionsFor, inParallel, minterCount, oidcFixtureOf, Pool, SIGN_IN_SCOPE } from './shared.ts';

// A session mints at most this many codes before a fresh sign-in takes over: real codes come from many
// people's grants, and oidc-provider's in-memory adapter walks a grant's whole token list on every save.
const CODES_PER_SESSION = 200;

/**
 * Scenario 1: a web client (client_secret_basic) redeems authorization codes with PKCE S256 at /token.
 * The codes are minted before the timed phase through real /auth requests of signed-in browsers.
 */
export const codeExchange: ScenarioDefinition = {
  id: 'code-exchange',
  async create(target, concurrency) {
    const fixture = oidcFixtureOf(target);
    const connections = connectionsFor(target, concurrency);
    const pool = new Pool<{ code: string; request: AuthorizationRequest }>();
    const minters: { browser: Browser; minted: number }[] = [];
    const minterConnections = Array.from({ length: minterCount(concurrency) }, () => new HttpConnection(target.baseUrl));

    async function mintOne(worker: number): Promise<void> {
      let minter = minters[worker];
      if (!minter || minter.minted >= CODES_PER_SESSION) {
        minter = { browser: await signedInBrowser(minterConnections[worker]!, fixture, SIGN_IN_SCOPE), minted: 0 };
        minters[worker] = minter;
      }
      const request = authorizationRequest(fixture, SIGN_IN_SCOPE);
      pool.add({ code: codeFromCallback(fixture, await minter.browser.get(request.path), request), request });
      minter.minted += 1;
    }

    return {
      pooled: true,
      async prepare(operations) {
        pool.clear();
        await inParallel(operations, minterConnections.length, mintOne);
      },
      async operate(vu) {
        const item = pool.take();
        if (!item) return false;
        const tokens = await redeemCode(connections[vu]!, fixture, item.code, item.request);
        if (!tokens.id_token) throw new ProtocolError('code exchange without an ID token');
        return true;
      },
      close() {
        for (const connection of [...connections, ...minterConnections]) connection.close();
      },
    };
  },
};

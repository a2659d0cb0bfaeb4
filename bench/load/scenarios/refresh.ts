import { authorizationRequest, codeFromCallback, redeemCode, signedInBrowser, tokenRequest, walkToCallback } from '../browser.ts';
import { ProtocolError } from '../protocol-error.ts';
import type { ScenarioDefinition } from '../scenario.ts';
import { reusable } from '../reuse-across-measurements.ts';
import { connectionsFor, oidcFixtureOf } from './shared.ts';

/**
 * Scenario 2: refresh-token grants with rotation. Each virtual user holds its own chain (its own
 * sign-in with offline_access) and always presents the newest refresh token of it; on Sesame the
 * chains carry on from one measurement to the next.
 */
export const refresh: ScenarioDefinition = {
  id: 'refresh',
  async create(target, concurrency) {
    const fixture = oidcFixtureOf(target);
    const connections = connectionsFor(target, concurrency);
    const refreshTokens = await reusable(target, 'refresh chains', concurrency, async (i) => {
        const connection = connections[i]!;
        const browser = await signedInBrowser(connection, fixture, 'openid');
        // OIDC Core 11: offline_access is granted only with prompt=consent.
        const request = authorizationRequest(fixture, 'openid offline_access', { prompt: 'consent' });
        const code = codeFromCallback(fixture, await walkToCallback(browser, fixture, request, fixture.person), request);
        const tokens = await redeemCode(connection, fixture, code, request);
        if (!tokens.refresh_token) throw new ProtocolError('no refresh token for a grant with offline_access');
        return tokens.refresh_token;
    });
    return {
      pooled: false,
      async prepare() {},
      async operate(vu) {
        const presented = refreshTokens[vu]!;
        const tokens = await tokenRequest(connections[vu]!, fixture, { grant_type: 'refresh_token', refresh_token: presented });
        if (!tokens.refresh_token || tokens.refresh_token === presented) throw new ProtocolError('refresh without a rotated refresh token');
        if (!tokens.id_token) throw new ProtocolError('refresh without an ID token');
        refreshTokens[vu] = tokens.refresh_token;
        return true;
      },
      close() {
        for (const connection of connections) connection.close();
      },
    };
  },
};

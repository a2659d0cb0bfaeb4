import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

// RFC 6749 5.2: error_description is printable ASCII without '"' and '\'.
const RFC_6749_DESCRIPTION = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

/** /token's invalid_grant and invalid_client say what to do next, and the same whatever went wrong. */
describe.each(TEST_ENGINES)('token endpoint error descriptions, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let rp: RelyingParty;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    rp = await fixture.register({ clientType: 'web', scopes: ['openid', 'offline_access'] });
  });
  afterAll(() => server?.close());

  async function token(form: Record<string, string>, credentials: { clientId: string; secret: string } | null = { clientId: rp.clientId, secret: rp.clientSecret! }) {
    const response = await fetch(`${server.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(credentials ? { authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.secret}`).toString('base64')}` } : {}),
      },
      body: new URLSearchParams(form),
    });
    return { status: response.status, body: (await response.json()) as { error: string; error_description: string } };
  }

  it('answers a code that cannot be redeemed with invalid_grant and the way forward, the same for a made-up and a used code', async () => {
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    const code = new URL(callback.location!).searchParams.get('code')!;
    await redeemCode(config, request, callback.location!);

    const used = await token({ grant_type: 'authorization_code', code, redirect_uri: rp.redirectUri, code_verifier: request.codeVerifier });
    const madeUp = await token({ grant_type: 'authorization_code', code: 'made-up-code', redirect_uri: rp.redirectUri, code_verifier: request.codeVerifier });
    for (const answer of [used, madeUp]) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_grant');
      expect(answer.body.error_description).toMatch(RFC_6749_DESCRIPTION);
      expect(answer.body.error_description).toContain('new authorization request');
      expect(answer.body.error_description).not.toContain(code);
    }
    expect(used.body.error_description).toBe(madeUp.body.error_description);
  });

  it('answers a refresh token that cannot be used with invalid_grant and what to do next', async () => {
    const refused = await token({ grant_type: 'refresh_token', refresh_token: 'not-a-refresh-token' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('newest refresh token') });
    expect(refused.body.error_description).toMatch(RFC_6749_DESCRIPTION);
  });

  it('answers a failed client authentication with invalid_client, the same for a wrong secret and an unknown client', async () => {
    const form = { grant_type: 'authorization_code', code: 'whatever', redirect_uri: rp.redirectUri };
    const wrongSecret = await token(form, { clientId: rp.clientId, secret: 'not-the-secret' });
    const unknownClient = await token(form, { clientId: 'cli_unknown', secret: 'not-the-secret' });
    for (const answer of [wrongSecret, unknownClient]) {
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_client');
      expect(answer.body.error_description).toMatch(RFC_6749_DESCRIPTION);
      expect(answer.body.error_description).toContain('HTTP Basic');
    }
    expect(wrongSecret.body.error_description).toBe(unknownClient.body.error_description);
  });
});

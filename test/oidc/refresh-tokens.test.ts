import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

describe.each(TEST_ENGINES)('refresh tokens on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  async function signIn(rp: RelyingParty, scope: string, extra: Record<string, string> = {}) {
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, scope, extra);
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    return { config, tokens: await redeemCode(config, request, callback.location!) };
  }

  it('issues a refresh token to a web client granted offline_access, rotates it on every use, and a reused one revokes the grant', async () => {
    const { config, tokens } = await signIn(fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    expect(tokens.scope?.split(' ')).toContain('offline_access');
    const first = tokens.refresh_token!;
    expect(first).toEqual(expect.any(String));

    const refreshed = await oidc.refreshTokenGrant(config, first);
    const second = refreshed.refresh_token!;
    expect(second).toEqual(expect.any(String));
    expect(second).not.toBe(first);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, fixture.person.subjectId)).name).toBe('Alice Example');

    const third = (await oidc.refreshTokenGrant(config, second)).refresh_token!;
    expect(third).not.toBe(second);

    // Presenting a replaced refresh token looks like theft: the whole grant goes, the newest token with it.
    expect(await oauthError(oidc.refreshTokenGrant(config, first))).toBe('invalid_grant');
    expect(await oauthError(oidc.refreshTokenGrant(config, third))).toBe('invalid_grant');
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, fixture.person.subjectId)).rejects.toThrow();
  });

  it('lets exactly one of concurrent uses of a refresh token succeed; the others are reuse and revoke the grant', async () => {
    const { config, tokens } = await signIn(fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const token = tokens.refresh_token!;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => oidc.refreshTokenGrant(config, token).then((refreshed) => ({ refreshed }), (error: unknown) => ({ error }))),
    );
    const winners = outcomes.flatMap((outcome) => ('refreshed' in outcome ? [outcome.refreshed] : []));
    const errors = await Promise.all(outcomes.flatMap((outcome) => ('error' in outcome ? [oauthError(Promise.reject(outcome.error))] : [])));
    expect(winners).toHaveLength(1);
    expect(errors).toEqual(Array.from({ length: 9 }, () => 'invalid_grant'));

    // The race is a reuse like any other: the grant is gone, the winner's new tokens with it.
    const winner = winners[0]!;
    expect(winner.refresh_token).toEqual(expect.any(String));
    expect(await oauthError(oidc.refreshTokenGrant(config, winner.refresh_token!))).toBe('invalid_grant');
    await expect(oidc.fetchUserInfo(config, winner.access_token, fixture.person.subjectId)).rejects.toThrow();
    await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
  });

  it('issues no refresh token to a web client whose grant lacks offline_access', async () => {
    const { tokens } = await signIn(fixture.web, 'openid profile');
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('issues no refresh token for offline_access without prompt=consent (OIDC Core 11), and says so in the granted scope', async () => {
    const { tokens } = await signIn(fixture.web, 'openid offline_access');
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope?.split(' ')).not.toContain('offline_access');
  });

  it('issues no refresh token to a spa client, ever', async () => {
    const { tokens } = await signIn(fixture.spa, 'openid profile', { prompt: 'consent' });
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('stops refreshes and userinfo at once when the person is disabled', async () => {
    const carol = await server.services.users.createUser(fixture.adminActor, { account: 'carol', displayName: 'Carol', password: 'carol-password-1' });
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, { account: 'carol', password: 'carol-password-1' });
    const tokens = await redeemCode(config, request, callback.location!);
    expect((await oidc.fetchUserInfo(config, tokens.access_token, carol.subjectId)).name).toBe('Carol');

    await server.services.users.updateUser(fixture.adminActor, carol.subjectId, { status: 'disabled' });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, carol.subjectId)).rejects.toThrow();
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
  });

  it('refuses a refresh token presented by another client', async () => {
    const { tokens } = await signIn(fixture.web, 'openid offline_access', { prompt: 'consent' });
    const other = await fixture.register({ clientType: 'web' });
    const otherConfig = await discoverAs(server.issuer, other);
    expect(await oauthError(oidc.refreshTokenGrant(otherConfig, tokens.refresh_token!))).toBe('invalid_grant');
  });
});

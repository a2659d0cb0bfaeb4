import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../docs/quickstarts/node-express/app.mjs';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { freePort, startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

/** The Node.js quickstart (docs/quickstarts/node.md) as a reader runs it: its app, against a running Sesame. */
describe.each(TEST_ENGINES)('the Node.js (Express) quickstart against Sesame on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let app: Server;
  let appUrl: string;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    const { client, secret } = await server.services.clients.registerClient(fixture.adminActor, fixture.projectId, {
      clientType: 'web',
      displayName: 'Quickstart app',
      redirectUris: [`${appUrl}/callback`],
      postLogoutRedirectUris: [`${appUrl}/`],
      scopeWhitelist: ['openid', 'profile', 'email'],
    });
    const express = await createApp({ issuer: server.issuer, clientId: client.clientId, clientSecret: secret!.value, baseUrl: appUrl, sessionSecret: 'quickstart-test-session-secret' });
    app = await new Promise<Server>((resolve) => {
      const listening = express.listen(port, '127.0.0.1', () => resolve(listening));
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => app.close(resolve));
    await server.close();
  });

  it('signs a person in, shows their name from userinfo, and signs them out of Sesame too', async () => {
    const browser = new OidcUserAgent(server.issuer);
    expect((await browser.request(`${appUrl}/`)).body).toContain('Sign in with Sesame');
    const toSesame = await browser.request(`${appUrl}/login`);
    expect(toSesame.status).toBe(302);
    expect(toSesame.location).toMatch(new RegExp(`^${server.issuer}/auth\\?`));
    expect(new URL(toSesame.location!).searchParams.get('code_challenge_method')).toBe('S256');

    const back = await signInThroughPages(browser, toSesame.location!, PERSON);
    expect(back.location).toMatch(new RegExp(`^${appUrl}/callback\\?code=`));
    const callback = await browser.request(back.location!);
    expect(callback.status).toBe(302);
    const home = await browser.request(`${appUrl}/`);
    expect(home.body).toContain('Signed in as Alice Example');

    const logout = await browser.request(`${appUrl}/logout`, { method: 'POST' });
    expect(logout.location).toMatch(new RegExp(`^${server.issuer}/session/end\\?`));
    expect((await browser.request(`${appUrl}/`)).body).toContain('Sign in with Sesame');
  });

  it('a replayed callback signs nobody in', async () => {
    const browser = new OidcUserAgent(server.issuer);
    const toSesame = await browser.request(`${appUrl}/login`);
    const back = await signInThroughPages(browser, toSesame.location!, PERSON);
    await browser.request(back.location!);
    const stranger = new OidcUserAgent(server.issuer);
    const replay = await stranger.request(back.location!);
    expect(replay.status).toBe(400);
    expect((await stranger.request(`${appUrl}/`)).body).not.toContain('Signed in as');
  });
});

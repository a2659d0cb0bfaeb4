import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, type PageResponse } from '../helpers/oidc-user-agent.ts';

// The person sees the same words for every refused client; the developer section says why, for a known id.
describe.each(TEST_ENGINES)('why /auth refused a client, on the error page on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  const authorize = (rp: Pick<RelyingParty, 'clientId' | 'redirectUri'>) => {
    const url = new URL('/auth', server.issuer);
    const params = { client_id: rp.clientId, response_type: 'code', redirect_uri: rp.redirectUri, scope: 'openid', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return new OidcUserAgent(server.issuer).request(url.href);
  };
  const developerSection = (page: PageResponse) => /<details>[\s\S]*<\/details>/.exec(page.body)?.[0] ?? '';

  it('says a disabled client is disabled', async () => {
    const rp = await fixture.register({ clientType: 'spa' });
    const client = await server.services.clients.getClient(fixture.adminActor, fixture.projectId, rp.clientId);
    await server.services.clients.updateClientMetadata(fixture.adminActor, fixture.projectId, rp.clientId, { clientVersion: client.clientVersion, status: 'disabled' });
    const page = await authorize(rp);
    expect(page.status).toBe(400);
    expect(page.body).toMatch(/not allowed to sign people in/);
    expect(developerSection(page)).toContain(`The client ${rp.clientId} is disabled`);
  });

  it('says a client of an archived project is refused for that, naming nothing of the project', async () => {
    const project = await server.services.projects.createProject(fixture.adminActor, { name: 'Secret project name' });
    const rp = await fixture.register({ clientType: 'spa', projectId: project.projectId });
    await server.services.projects.updateProject(fixture.adminActor, project.projectId, { expectedProjectVersion: project.version, status: 'archived' });
    const page = await authorize(rp);
    expect(page.status).toBe(400);
    expect(developerSection(page)).toContain(`The client ${rp.clientId} belongs to an archived project`);
    expect(page.body).not.toContain('Secret project name');
    expect(page.body).not.toContain(project.projectId);
  });

  it('says nothing more of an unknown or an active client id', async () => {
    const unknown = await authorize({ clientId: 'no-such-client', redirectUri: fixture.spa.redirectUri });
    expect(unknown.status).toBe(400);
    expect(unknown.body).not.toMatch(/disabled|archived/);
    const wrongRedirect = await authorize({ clientId: fixture.spa.clientId, redirectUri: 'http://127.0.0.1:9/elsewhere' });
    expect(wrongRedirect.body).not.toMatch(/is disabled|archived project/);
  });
});

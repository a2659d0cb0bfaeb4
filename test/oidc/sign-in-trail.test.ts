import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

const ADMIN = { account: 'root', password: 'root-password-123' };
const NO_ADDRESS = { account: 'noaddress', password: 'no-address-password-1' };

/**
 * Issue 23: the administrators' trail holds browser sign-ins at the login pages (as the guide says), and
 * userinfo leaves out `email` and `email_verified` for a person with no address (as docs/oidc.md says).
 */
describe.each(TEST_ENGINES)('sign-ins at the login pages and claims of a person with no address, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let rp: RelyingParty;
  let subjectId: string;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    await server.services.users.createUser(fixture.adminActor, { account: ADMIN.account, displayName: 'Root', password: ADMIN.password, isAdmin: true });
    subjectId = (await server.services.users.createUser(fixture.adminActor, { account: NO_ADDRESS.account, displayName: 'No Address', password: NO_ADDRESS.password })).subjectId;
    rp = await fixture.register({ clientType: 'web', scopes: ['openid', 'profile', 'email'] });
  });
  afterAll(() => server?.close());

  it('records a sign-in to an application as session.login in the administrators\' trail, naming the application', async () => {
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid profile email');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, NO_ADDRESS);
    const tokens = await redeemCode(config, request, callback.location!);

    const admin = createAgentClient(server.app);
    await admin.login(ADMIN.account, ADMIN.password);
    const trail = (await admin.call('GET', '/admin/audit-logs?limit=200')).body.auditLogs as Array<Record<string, any>>;
    const signIns = trail.filter((entry) => entry.action === 'session.login' && entry.targetId === subjectId);
    expect(signIns).toHaveLength(1);
    expect(signIns[0]).toMatchObject({ surface: 'system', actorSubjectId: subjectId, targetType: 'user', ip: '127.0.0.1', after: { kind: 'oidc', method: 'password', secondFactor: false, clientId: rp.clientId } });

    // A refused password writes no sign-in.
    const again = await authorizationRequest(config, rp, 'openid');
    await signInThroughPages(new OidcUserAgent(server.issuer), again.url, { account: NO_ADDRESS.account, password: 'wrong password here' });
    const after = (await admin.call('GET', '/admin/audit-logs?limit=200')).body.auditLogs as Array<Record<string, any>>;
    expect(after.filter((entry) => entry.action === 'session.login' && entry.targetId === subjectId)).toHaveLength(1);

    // userinfo of a person with no address: the email scope was granted, its two claims are left out.
    const claims = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(claims).toMatchObject({ sub: subjectId, name: 'No Address', preferred_username: NO_ADDRESS.account });
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('email_verified');
    expect(tokens.scope?.split(' ')).toContain('email');
  });
});

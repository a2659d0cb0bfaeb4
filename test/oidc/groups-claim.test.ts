import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/domain/clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages, type PageResponse } from '../helpers/oidc-user-agent.ts';
import { authorizeAndConnect, mcpRequest, PreRegisteredAssistant, registerAssistant, signInOverHttp } from '../mcp/assistant-client.ts';

const BOB = { account: 'bob', password: 'bob-password-123' };
const ADMIN = { account: 'root', password: 'root-password-123' };

describe.each(TEST_ENGINES)('the groups scope and claim, and claimsInIdToken, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let plain: RelyingParty;
  let inIdToken: RelyingParty;
  let spaInIdToken: RelyingParty;

  async function register(clientType: 'web' | 'spa', scopeWhitelist: Scope[], claimsInIdToken: boolean): Promise<RelyingParty> {
    const uris = { redirectUri: `http://127.0.0.1:9/groups-${clientType}-${String(claimsInIdToken)}/callback`, postLogoutRedirectUri: 'http://127.0.0.1:9/bye' };
    const { client, secret } = await server.services.clients.registerClient(fixture.adminActor, fixture.projectId, {
      clientType,
      displayName: `Groups ${clientType}`,
      redirectUris: [uris.redirectUri],
      postLogoutRedirectUris: [uris.postLogoutRedirectUri],
      scopeWhitelist,
      claimsInIdToken,
    });
    expect(client.claimsInIdToken).toBe(claimsInIdToken);
    return { clientId: client.clientId, clientSecret: secret?.value, ...uris };
  }

  /** Signs `person` in through the real login and consent pages; the tokens, the userinfo answer and the consent page seen. */
  async function signIn(rp: RelyingParty, scope: string, person: { account: string; password: string } = PERSON, extra: Record<string, string> = {}) {
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, scope, extra);
    const consentPages: PageResponse[] = [];
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, person, { onConsentPage: (page) => consentPages.push(page) });
    expect(callback.location, callback.body).toContain('code=');
    // openid-client verifies the ID token's signature, issuer, audience and nonce.
    const tokens = await redeemCode(config, request, callback.location!);
    const idToken = tokens.claims()!;
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    return { idToken, userinfo, consent: consentPages.map((page) => page.body).join('\n') };
  }

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    await server.services.users.createUser(fixture.adminActor, { account: BOB.account, displayName: 'Bob', password: BOB.password });
    await server.services.users.createUser(fixture.adminActor, { account: ADMIN.account, displayName: 'Root', password: ADMIN.password, isAdmin: true });
    for (const name of ['staff', 'a-team', 'zeta']) await server.services.groups.addGroup(fixture.adminActor, { name, displayName: name });
    await server.services.groups.putMember(fixture.adminActor, 'staff', fixture.person.subjectId);
    await server.services.groups.putMember(fixture.adminActor, 'a-team', fixture.person.subjectId);
    plain = await register('web', ['openid', 'profile', 'email', 'groups'], false);
    inIdToken = await register('web', ['openid', 'profile', 'email', 'student', 'groups'], true);
    spaInIdToken = await register('spa', ['openid', 'profile', 'groups'], true);
  });
  afterAll(() => server.close());

  it('discovery lists the groups scope and claim', async () => {
    const document = (await (await fetch(`${server.issuer}/.well-known/openid-configuration`)).json()) as { scopes_supported: string[]; claims_supported: string[] };
    expect(document.scopes_supported).toContain('groups');
    expect(document.claims_supported).toContain('groups');
  });

  it('with the groups scope: the consent page says "your groups", userinfo and the ID token carry the sorted names, the ID token no profile data', async () => {
    const { idToken, userinfo, consent } = await signIn(plain, 'openid profile email groups');
    expect(consent).toContain('See your groups');
    expect(userinfo).toEqual({ sub: fixture.person.subjectId, name: 'Alice Example', preferred_username: 'alice', email: 'alice@example.edu', email_verified: true, groups: ['a-team', 'staff'] });
    expect(idToken.groups).toEqual(['a-team', 'staff']);
    for (const claim of ['name', 'preferred_username', 'email', 'email_verified', 'student_status']) expect(idToken, claim).not.toHaveProperty(claim);
  });

  it('without the scope no groups anywhere; a person in no group gets []', async () => {
    const without = await signIn(plain, 'openid profile');
    expect(without.userinfo).toEqual({ sub: fixture.person.subjectId, name: 'Alice Example', preferred_username: 'alice' });
    expect(without.idToken).not.toHaveProperty('groups');
    expect(without.consent).not.toContain('See your groups');

    const none = await signIn(plain, 'openid groups', BOB);
    expect(none.userinfo.groups).toEqual([]);
    expect(none.idToken.groups).toEqual([]);
  });

  it('claimsInIdToken: the ID token also carries the profile, email and groups claims of the granted scopes, and only those', async () => {
    const all = await signIn(inIdToken, 'openid profile email student groups');
    expect(all.idToken).toMatchObject({ sub: fixture.person.subjectId, name: 'Alice Example', preferred_username: 'alice', email: 'alice@example.edu', email_verified: true, groups: ['a-team', 'staff'] });
    expect(all.idToken).not.toHaveProperty('student_status');
    expect(all.userinfo.student_status).toBe('active');

    const profileOnly = await signIn(inIdToken, 'openid profile');
    expect(profileOnly.idToken).toMatchObject({ name: 'Alice Example', preferred_username: 'alice' });
    for (const claim of ['email', 'email_verified', 'groups']) expect(profileOnly.idToken, claim).not.toHaveProperty(claim);

    const spa = await signIn(spaInIdToken, 'openid profile groups');
    expect(spa.idToken).toMatchObject({ name: 'Alice Example', groups: ['a-team', 'staff'] });
  });

  it('a membership change reaches the next token at once', async () => {
    await server.services.groups.putMember(fixture.adminActor, 'zeta', fixture.person.subjectId);
    await server.services.groups.removeMember(fixture.adminActor, 'a-team', fixture.person.subjectId);
    const { userinfo, idToken } = await signIn(plain, 'openid groups');
    expect(userinfo.groups).toEqual(['staff', 'zeta']);
    expect(idToken.groups).toEqual(['staff', 'zeta']);
  });

  it('the consent page names the groups in Chinese', async () => {
    const { consent } = await signIn(inIdToken, 'openid groups', BOB, { ui_locales: 'zh-CN' });
    expect(consent).toContain('查看你所在的群组');
  });

  it('an administrator\'s assistant with sesame:admin manages groups as MCP tools; a person\'s assistant has none of them', async () => {
    const assistantClientId = await registerAssistant(server.services, fixture.adminActor, fixture.projectId, { scopeWhitelist: ['openid', 'offline_access'] });
    let port = 52_300;
    const connect = async (person: { account: string; password: string }) => {
      const provider = new PreRegisteredAssistant(assistantClientId, `http://127.0.0.1:${(port += 1)}/callback`);
      const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, person));
      await mcp.close();
      return provider.tokens()!.access_token;
    };
    const adminToken = await connect(ADMIN);
    const tools = (await mcpRequest(server.issuer, adminToken, 'tools/list')).body.result.tools as { name: string; annotations: Record<string, boolean> }[];
    const names = tools.map((tool) => tool.name);
    for (const name of ['listGroups', 'createGroup', 'updateGroup', 'deleteGroup', 'listGroupMembers', 'addGroupMember', 'removeGroupMember']) expect(names).toContain(name);
    expect(tools.find((tool) => tool.name === 'listGroups')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'deleteGroup')!.annotations).toMatchObject({ destructiveHint: true });

    const created = await mcpRequest(server.issuer, adminToken, 'tools/call', { name: 'createGroup', arguments: { name: 'assistants', displayName: 'Made by an assistant' } });
    expect(created.body.result.isError, JSON.stringify(created.body)).toBeFalsy();
    expect(created.body.result.structuredContent.group).toMatchObject({ name: 'assistants', memberCount: 0, version: 1 });
    const added = await mcpRequest(server.issuer, adminToken, 'tools/call', { name: 'addGroupMember', arguments: { name: 'assistants', subjectId: fixture.person.subjectId } });
    expect(added.body.result.isError).toBeFalsy();
    const members = await mcpRequest(server.issuer, adminToken, 'tools/call', { name: 'listGroupMembers', arguments: { name: 'assistants' } });
    expect(members.body.result.structuredContent.members).toEqual([{ subjectId: fixture.person.subjectId, account: 'alice', displayName: 'Alice Example', source: 'local' }]);
    const audit = await server.db.selectFrom('audit_log').selectAll().where('target_type', '=', 'group').where('target_id', '=', 'assistants').execute();
    expect(audit.map((entry) => [entry.action, entry.surface, entry.project_id])).toEqual([['group.create', 'mcp', null], ['group.member_add', 'mcp', null]]);

    const personToken = await connect(BOB);
    const personTools = ((await mcpRequest(server.issuer, personToken, 'tools/list')).body.result.tools as { name: string }[]).map((tool) => tool.name);
    expect(personTools.filter((name) => /Group/.test(name))).toEqual([]);
    const refused = await mcpRequest(server.issuer, personToken, 'tools/call', { name: 'listGroups', arguments: {} });
    expect(JSON.stringify(refused.body)).toMatch(/insufficient_scope|forbidden|not found|Unknown tool/i);
  });
});

import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createAgentClient, type AgentClient } from '../api/helpers/api-clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isConsentPage, OidcUserAgent } from '../helpers/oidc-user-agent.ts';
import { PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';
import { startUpstreamProvider, type UpstreamProvider } from '../helpers/upstream-oidc.ts';

const ADMIN_PASSWORD = 'bootstrap-admin-password-1';
const UPSTREAM_SECRET = 'campus client secret at the upstream';

async function groupsOf(server: OidcTestServer, account: string): Promise<Record<string, string>> {
  const user = (await server.services.users.findByAccount(account))!;
  const rows = await server.db.selectFrom('group_members').select(['group_name', 'source']).where('subject_id', '=', user.subjectId).execute();
  return Object.fromEntries(rows.map((row) => [row.group_name, row.source]));
}

describe.each(TEST_ENGINES)('groups from upstream identity providers on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let adminActor: Actor;
  let admin: AgentClient;

  beforeAll(async () => {
    server = await startOidcTestServer(engine, { OIDC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD });
    fixture = await setUpOidcFixture(server);
    adminActor = fixture.adminActor;
    admin = createAgentClient(server.app);
    await admin.login('admin', ADMIN_PASSWORD);
    for (const name of ['staff', 'faculty', 'students', 'local-only']) await server.services.groups.addGroup(adminActor, { name, displayName: name });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  describe.skipIf(!SLAPD_AVAILABLE)('an LDAP directory with groupOfNames entries', () => {
    let directory: TestDirectory;
    let staffDn: string;
    let facultyDn: string;
    const ADA = { uid: 'ada', cn: 'Ada Lovelace', mail: 'ada@example.org', password: 'analytical-engine-1843' };
    const login = (password = ADA.password) => createAgentClient(server.app).call('POST', '/auth/login', { account: ADA.uid, password });

    beforeAll(async () => {
      directory = await startTestDirectory();
      await directory.addPerson(ADA);
      staffDn = await directory.setGroup('Staff', ['ada']);
      facultyDn = await directory.setGroup('faculty', ['ada']);
      // Ada is in a third group the mapping does not name: it maps to nothing.
      await directory.setGroup('chess', ['ada']);
      const added = await admin.call('POST', '/admin/identity-providers', {
        type: 'ldap',
        name: 'campus-ldap',
        displayName: 'Campus directory',
        provisioning: 'create',
        ldap: { url: directory.url, bindDn: SERVICE_BIND.dn, bindPassword: SERVICE_BIND.password, userSearchBase: PEOPLE_DN, groupSearchBase: staffDn.replace(/^cn=Staff,/, '') },
        // Keys compare as DNs: case and spaces after commas do not matter. `chess` is unmapped; `ghosts` names no group.
        groupMapping: { [staffDn.toUpperCase().replace(/,/g, ', ')]: 'staff', [facultyDn]: 'faculty', 'cn=ghosts,ou=groups,dc=example,dc=org': 'ghosts' },
      });
      expect(added.status, added.text).toBe(201);
    }, 60_000);
    afterAll(async () => {
      await directory?.close();
    });

    it('sets the mapped memberships at sign-in, leaves local ones alone, and replaces its own at the next sign-in', async () => {
      expect((await login()).status).toBe(200);
      expect(await groupsOf(server, 'ada')).toEqual({ staff: 'ldap:campus-ldap', faculty: 'ldap:campus-ldap' });

      const ada = (await server.services.users.findByAccount('ada'))!;
      await server.services.groups.putMember(adminActor, 'local-only', ada.subjectId);
      await directory.setGroup('faculty', []);
      expect((await login()).status).toBe(200);
      expect(await groupsOf(server, 'ada')).toEqual({ staff: 'ldap:campus-ldap', 'local-only': 'local' });

      // A provider's membership an administrator PUTs becomes local: the next sign-in no longer removes it.
      await server.services.groups.putMember(adminActor, 'staff', ada.subjectId);
      await directory.setGroup('Staff', []);
      expect((await login()).status).toBe(200);
      expect(await groupsOf(server, 'ada')).toEqual({ staff: 'local', 'local-only': 'local' });

      const audit = await server.db.selectFrom('audit_log').select(['action', 'target_id', 'surface', 'project_id']).where('target_type', '=', 'group').where('surface', '=', 'system').execute();
      expect(audit.map((entry) => [entry.action, entry.target_id])).toEqual(
        expect.arrayContaining([['group.member_add', 'staff'], ['group.member_add', 'faculty'], ['group.member_remove', 'faculty']]),
      );
      expect(audit.every((entry) => entry.project_id === null)).toBe(true);
    });

    it('a failed group search leaves the memberships as they were; an empty result removes them; removing the provider removes the rest', async () => {
      const ada = (await server.services.users.findByAccount('ada'))!;
      await server.services.groups.removeMember(adminActor, 'staff', ada.subjectId);
      await directory.setGroup('Staff', ['ada']);
      await directory.setGroup('faculty', ['ada']);
      expect((await login()).status).toBe(200);
      expect(await groupsOf(server, 'ada')).toEqual({ staff: 'ldap:campus-ldap', faculty: 'ldap:campus-ldap', 'local-only': 'local' });

      const provider = (await admin.call('GET', '/admin/identity-providers')).body.identityProviders.find((p: { name: string }) => p.name === 'campus-ldap');
      const broken = await admin.call('PATCH', '/admin/identity-providers/campus-ldap', { expectedVersion: provider.version, ldap: { groupSearchBase: 'ou=no-such-branch,dc=example,dc=org' } });
      expect(broken.status, broken.text).toBe(200);
      expect((await login()).status).toBe(200);
      expect(await groupsOf(server, 'ada')).toEqual({ staff: 'ldap:campus-ldap', faculty: 'ldap:campus-ldap', 'local-only': 'local' });

      const fixed = await admin.call('PATCH', '/admin/identity-providers/campus-ldap', { expectedVersion: broken.body.identityProvider.version, ldap: { groupSearchBase: 'ou=groups,dc=example,dc=org' } });
      await directory.setGroup('faculty', []);
      expect((await login()).status).toBe(200);
      expect(await groupsOf(server, 'ada')).toEqual({ staff: 'ldap:campus-ldap', 'local-only': 'local' });

      const removed = await admin.call('DELETE', '/admin/identity-providers/campus-ldap', { expectedVersion: fixed.body.identityProvider.version });
      expect(removed.status, removed.text).toBe(204);
      expect(await groupsOf(server, 'ada')).toEqual({ 'local-only': 'local' });
    });
  });

  describe('an upstream OpenID Connect provider with a groups claim', () => {
    let upstream: UpstreamProvider;
    let rp: RelyingParty;

    beforeAll(async () => {
      upstream = await startUpstreamProvider([{ client_id: 'sesame', client_secret: UPSTREAM_SECRET, redirect_uris: [`${server.issuer}/upstream/campus/callback`] }], {
        'up-erin': { preferred_username: 'erin', name: 'Erin Upstream', email: 'erin@example.edu', email_verified: true, groups: ['campus-staff', 'campus-faculty', 'unmapped'] },
      });
      const added = await admin.call('POST', '/admin/identity-providers', {
        type: 'oidc',
        name: 'campus',
        displayName: 'Campus login',
        provisioning: 'create',
        oidc: { issuer: upstream.issuer, clientId: 'sesame', clientSecret: UPSTREAM_SECRET, scopes: ['openid', 'profile', 'email', 'groups'], claims: { groups: 'groups' } },
        groupMapping: { 'campus-staff': 'staff', 'campus-faculty': 'faculty', 'Campus-Students': 'students' },
      });
      expect(added.status, added.text).toBe(201);
      const { client, secret } = await server.services.clients.registerClient(adminActor, fixture.projectId, {
        clientType: 'web',
        displayName: 'Groups app',
        redirectUris: ['http://127.0.0.1:9/groups-app/callback'],
        scopeWhitelist: ['openid', 'profile', 'groups'],
      });
      rp = { clientId: client.clientId, clientSecret: secret!.value, redirectUri: 'http://127.0.0.1:9/groups-app/callback', postLogoutRedirectUri: 'http://127.0.0.1:9/bye' };
    }, 60_000);
    afterAll(async () => {
      await upstream?.stop();
    });

    /** The relying party's sign-in through "Continue with Campus login" and the upstream's own login form, over HTTP; the RP's userinfo and ID token. */
    async function signInThroughUpstream(upstreamAccount: string) {
      const config = await discoverAs(server.issuer, rp);
      const request = await authorizationRequest(config, rp, 'openid profile groups');
      const sesame = new OidcUserAgent(server.issuer);
      const login = await sesame.follow(request.url);
      const action = /action="(\/interaction\/[^"]+\/upstream\/campus)"/.exec(login.body)?.[1];
      expect(action, login.body).toBeDefined();
      const toUpstream = await sesame.follow(action!, { form: { csrf: csrfTokenOf(login) } });
      expect(new URL(toUpstream.location!).origin).toBe(upstream.issuer);

      const browserAtUpstream = new OidcUserAgent(upstream.issuer);
      const form = await browserAtUpstream.follow(toUpstream.location!);
      const formAction = /<form[^>]*action="([^"]+)"/.exec(form.body)![1]!;
      const back = await browserAtUpstream.follow(formAction, { form: { prompt: 'login', login: upstreamAccount, password: 'any' } });
      expect(back.location?.startsWith(`${server.issuer}/upstream/campus/callback`), `${back.status} ${back.body}`).toBe(true);

      let page = await sesame.follow(back.location!);
      if (isConsentPage(page)) {
        const uid = /action="\/interaction\/([^"/]+)\/confirm"/.exec(page.body)![1]!;
        page = await sesame.follow(`/interaction/${uid}/confirm`, { form: { csrf: csrfTokenOf(page) } });
      }
      expect(page.location?.startsWith(rp.redirectUri), `${page.status} ${page.body.slice(0, 500)}`).toBe(true);
      const tokens = await redeemCode(config, request, page.location!);
      const idToken = tokens.claims()!;
      return { idToken, userinfo: await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub) };
    }

    it('maps the upstream groups claim at sign-in and replaces the memberships at the next one; an absent claim leaves them', async () => {
      const first = await signInThroughUpstream('up-erin');
      expect(first.userinfo.groups).toEqual(['faculty', 'staff']);
      expect(first.idToken.groups).toEqual(['faculty', 'staff']);
      expect(await groupsOf(server, 'erin')).toEqual({ staff: 'oidc:campus', faculty: 'oidc:campus' });

      upstream.setAccounts({ 'up-erin': { preferred_username: 'erin', name: 'Erin Upstream', email: 'erin@example.edu', email_verified: true, groups: ['campus-staff', 'Campus-Students'] } });
      const second = await signInThroughUpstream('up-erin');
      expect(second.userinfo.groups).toEqual(['staff', 'students']);
      expect(await groupsOf(server, 'erin')).toEqual({ staff: 'oidc:campus', students: 'oidc:campus' });

      upstream.setAccounts({ 'up-erin': { preferred_username: 'erin', name: 'Erin Upstream', email: 'erin@example.edu', email_verified: true } });
      const third = await signInThroughUpstream('up-erin');
      expect(third.userinfo.groups).toEqual(['staff', 'students']);

      upstream.setAccounts({ 'up-erin': { preferred_username: 'erin', name: 'Erin Upstream', email: 'erin@example.edu', email_verified: true, groups: [] } });
      const fourth = await signInThroughUpstream('up-erin');
      expect(fourth.userinfo.groups).toEqual([]);
      expect(await groupsOf(server, 'erin')).toEqual({});
    });
  });
});

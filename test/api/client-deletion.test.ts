import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';
import { createAgentClient, createConsoleClient, type AgentClient, type ConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

/**
 * Ending a client's tokens, deleting a client and deleting an archived project, through both
 * management surfaces, checked against a real relying party holding real tokens.
 */
describe.each(TEST_ENGINES)('client and project deletion on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let owner: AgentClient;
  let maintainer: ConsoleClient;
  let viewer: AgentClient;
  let admin: AgentClient;
  let projectId: string;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    const people = await createAccounts(server.services, ['olive', 'mark', 'vera', 'ada'], ['ada']);
    owner = createAgentClient(server.app);
    await owner.login('olive', PASSWORD);
    maintainer = createConsoleClient(server.app);
    await maintainer.login('mark', PASSWORD);
    viewer = createAgentClient(server.app);
    await viewer.login('vera', PASSWORD);
    admin = createAgentClient(server.app);
    await admin.login('ada', PASSWORD);
    const created = await owner.call('POST', '/projects', { name: 'Deletion' });
    projectId = created.body.project.projectId;
    await owner.call('POST', `/projects/${projectId}/members`, { subjectId: people.mark.subjectId, role: 'maintainer', expectedProjectVersion: 1 });
    await owner.call('POST', `/projects/${projectId}/members`, { subjectId: people.vera.subjectId, role: 'viewer', expectedProjectVersion: 2 });
  });
  afterAll(() => server.close());

  async function signIn(rp: RelyingParty) {
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid profile offline_access', { prompt: 'consent' });
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    return { config, tokens: await redeemCode(config, request, callback.location!) };
  }

  const payloadRowsOf = (clientId: string) => server.db.selectFrom('oidc_payloads').select('kind').where('client_id', '=', clientId).execute();
  const consentsFor = (clientId: string) => server.db.selectFrom('remembered_consents').select('subject_id').where('client_id', '=', clientId).execute();
  const clientVersionOf = async (clientId: string) => (await owner.call('GET', `/projects/${projectId}/clients/${clientId}`)).body.client.clientVersion as number;

  it('ends every grant of a client with its tokens, keeps its secrets, bumps clientVersion and audits it (maintainer+)', async () => {
    const rp = await fixture.register({ clientType: 'web', projectId });
    const first = await signIn(rp);
    const second = await signIn(rp);
    const other = await signIn(await fixture.register({ clientType: 'web', projectId }));
    const before = (await owner.call('GET', `/projects/${projectId}/clients/${rp.clientId}`)).body.client;
    const path = `/projects/${projectId}/clients/${rp.clientId}/tokens/revoke`;

    const refused = await viewer.call('POST', path, { clientVersion: before.clientVersion });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const stale = await maintainer.call('POST', path, { clientVersion: before.clientVersion + 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    // It says what to do, and hands over no number to resend blindly.
    expect(stale.body.error_description).toMatch(/Read it again \(`GET \/projects\/\{projectId\}\/clients\/\{clientId\}`\), check that your change still makes sense/);
    expect(stale.body.error_description).not.toMatch(/\d/);
    expect(await oidc.fetchUserInfo(first.config, first.tokens.access_token, fixture.person.subjectId)).toMatchObject({ sub: fixture.person.subjectId });

    const revoked = await maintainer.call('POST', path, { clientVersion: before.clientVersion });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedGrants).toBe(2);
    expect(revoked.body.client.clientVersion).toBe(before.clientVersion + 1);
    expect(revoked.body.client.secrets).toEqual(before.secrets);

    for (const { config, tokens } of [first, second]) {
      await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
      expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    }
    expect(await payloadRowsOf(rp.clientId)).toEqual([]);
    // What the person allowed the client is no token: it stays.
    expect(await consentsFor(rp.clientId)).toEqual([{ subject_id: fixture.person.subjectId }]);
    // Another client's sign-ins are untouched, and the same secret signs people in again.
    expect(await oidc.fetchUserInfo(other.config, other.tokens.access_token, fixture.person.subjectId)).toMatchObject({ sub: fixture.person.subjectId });
    const again = await signIn(rp);
    expect(again.tokens.access_token).toEqual(expect.any(String));

    const audit = await owner.call('GET', `/projects/${projectId}/audit-logs?limit=1`);
    expect(audit.body.auditLogs[0]).toMatchObject({ action: 'client.revoke_tokens', targetId: rp.clientId, surface: 'console', after: { revokedGrants: 2 } });
  });

  it('deletes a client with its secrets, revisions, grants and tokens in one go (maintainer+, current clientVersion)', async () => {
    const rp = await fixture.register({ clientType: 'web', projectId });
    const { config, tokens } = await signIn(rp);
    expect(await consentsFor(rp.clientId)).toHaveLength(1);
    const version = await clientVersionOf(rp.clientId);
    const path = `/projects/${projectId}/clients/${rp.clientId}`;

    expect((await viewer.call('DELETE', path, { clientVersion: version })).status).toBe(403);
    const stale = await maintainer.call('DELETE', path, { clientVersion: version + 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect((await maintainer.call('DELETE', path, {})).status).toBe(400);
    expect((await owner.call('GET', path)).status).toBe(200);

    const deleted = await maintainer.call('DELETE', path, { clientVersion: version });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await owner.call('GET', path)).status).toBe(404);
    expect((await maintainer.call('DELETE', path, { clientVersion: version })).status).toBe(404);

    await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_client');
    expect(await payloadRowsOf(rp.clientId)).toEqual([]);
    expect(await consentsFor(rp.clientId)).toEqual([]);
    for (const table of ['client_secrets', 'client_revisions', 'clients'] as const) {
      expect(await server.db.selectFrom(table).select('client_id').where('client_id', '=', rp.clientId).execute()).toEqual([]);
    }
    const audit = await owner.call('GET', `/projects/${projectId}/audit-logs?limit=1`);
    expect(audit.body.auditLogs[0]).toMatchObject({ action: 'client.delete', targetId: rp.clientId, before: { clientType: 'web', clientVersion: version }, after: { revokedGrants: 1 } });
    expect(JSON.stringify(audit.body)).not.toContain(rp.clientSecret);
  });

  it('deletes only an archived project, with its clients and their tokens (owner or admin, current version)', async () => {
    const rp = await fixture.register({ clientType: 'web', projectId });
    const { config, tokens } = await signIn(rp);
    expect(await consentsFor(rp.clientId)).toHaveLength(1);
    const path = `/projects/${projectId}`;
    let version = (await owner.call('GET', path)).body.project.version as number;

    const active = await owner.call('DELETE', path, { expectedProjectVersion: version });
    expect(active.status).toBe(409);
    expect(active.body.error).toBe('project_not_archived');
    const archived = await owner.call('PATCH', path, { expectedProjectVersion: version, status: 'archived' });
    version = archived.body.project.version;

    expect((await maintainer.call('DELETE', path, { expectedProjectVersion: version })).body.error).toBe('forbidden');
    const stale = await owner.call('DELETE', path, { expectedProjectVersion: version - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('version_conflict');
    expect(stale.body.error_description).toMatch(/Read it again \(`GET \/projects\/\{projectId\}`\)/);
    expect(stale.body.error_description).not.toMatch(/\d/);
    expect((await owner.call('GET', path)).status).toBe(200);

    expect((await owner.call('DELETE', path, { expectedProjectVersion: version })).status).toBe(204);
    expect((await owner.call('GET', path)).status).toBe(404);
    expect((await maintainer.call('GET', '/projects')).body.projects).toEqual([]);
    await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
    expect(await payloadRowsOf(rp.clientId)).toEqual([]);
    expect(await consentsFor(rp.clientId)).toEqual([]);
    expect(await server.db.selectFrom('clients').select('client_id').where('project_id', '=', projectId).execute()).toEqual([]);
    expect(await server.db.selectFrom('project_members').select('subject_id').where('project_id', '=', projectId).execute()).toEqual([]);

    const trail = await admin.call('GET', '/admin/audit-logs?limit=5');
    expect(trail.status).toBe(200);
    expect(trail.body.auditLogs[0]).toMatchObject({ action: 'project.delete', targetId: projectId, actorAccount: 'olive', before: { status: 'archived', clientIds: expect.arrayContaining([rp.clientId]) } });
  });

  it('lets an administrator delete an archived project it is no member of', async () => {
    const created = await owner.call('POST', '/projects', { name: 'Left behind' });
    const id = created.body.project.projectId;
    await owner.call('PATCH', `/projects/${id}`, { expectedProjectVersion: 1, status: 'archived' });
    expect((await viewer.call('DELETE', `/projects/${id}`, { expectedProjectVersion: 2 })).status).toBe(404);
    expect((await admin.call('DELETE', `/projects/${id}`, { expectedProjectVersion: 2 })).status).toBe(204);
    expect((await owner.call('GET', `/projects/${id}`)).status).toBe(404);
  });
});

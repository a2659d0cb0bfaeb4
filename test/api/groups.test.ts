import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

type Caller = ReturnType<typeof createAgentClient>;

describe.each(TEST_ENGINES)('groups on both management surfaces on %s', (engine) => {
  let ctx: TestContext;
  let people: Awaited<ReturnType<typeof createAccounts<'boss' | 'pat' | 'quinn'>>>;
  const surfaces = {} as Record<'agent' | 'console', { admin: Caller; person: Caller }>;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    people = await createAccounts(ctx.services, ['boss', 'pat', 'quinn'], ['boss']);
    for (const surface of ['agent', 'console'] as const) {
      const make = surface === 'agent' ? createAgentClient : createConsoleClient;
      const admin = make(ctx.app);
      await admin.login('boss', PASSWORD);
      const person = make(ctx.app);
      await person.login('pat', PASSWORD);
      surfaces[surface] = { admin, person } as never;
    }
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
  });

  for (const surface of ['agent', 'console'] as const) {
    it(`${surface}: adds, lists, changes and removes a group at the version read, each audited in the administrators' trail`, async () => {
      const { admin } = surfaces[surface];
      const name = `staff-${surface}`;
      const created = await admin.call('POST', '/admin/groups', { name, displayName: '  Staff  ', description: 'Everyone employed' });
      expect(created.status, created.text).toBe(201);
      expect(created.body.group).toEqual({ name, displayName: 'Staff', description: 'Everyone employed', memberCount: 0, version: 1, createdAt: expect.any(String) });
      expect(new Date(created.body.group.createdAt).toISOString()).toBe(created.body.group.createdAt);

      const listed = await admin.call('GET', '/admin/groups');
      expect(listed.status).toBe(200);
      expect(listed.body.groups).toContainEqual(created.body.group);

      const changed = await admin.call('PATCH', `/admin/groups/${name}`, { expectedVersion: 1, displayName: 'All staff' });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.group).toMatchObject({ name, displayName: 'All staff', description: 'Everyone employed', version: 2 });
      const stale = await admin.call('PATCH', `/admin/groups/${name}`, { expectedVersion: 1, description: 'lost update' });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toBe('version_conflict');
      const staleDelete = await admin.call('DELETE', `/admin/groups/${name}`, { expectedVersion: 1 });
      expect(staleDelete.status).toBe(409);
      expect(staleDelete.body.error).toBe('version_conflict');

      const removed = await admin.call('DELETE', `/admin/groups/${name}`, { expectedVersion: 2 });
      expect(removed.status, removed.text).toBe(204);
      expect((await admin.call('GET', `/admin/groups/${name}/members`)).status).toBe(404);
      expect((await admin.call('PATCH', `/admin/groups/${name}`, { expectedVersion: 2, displayName: 'x' })).status).toBe(404);

      const audit = (await admin.call('GET', '/admin/audit-logs?limit=200')).body.auditLogs as { action: string; targetType: string; targetId: string; surface: string }[];
      expect(audit.filter((entry) => entry.targetId === name).map((entry) => [entry.action, entry.targetType, entry.surface]).reverse()).toEqual([
        ['group.create', 'group', surface],
        ['group.update', 'group', surface],
        ['group.delete', 'group', surface],
      ]);
    });

    it(`${surface}: refuses a taken name, a name that is not a slug, and unknown fields, with field_errors`, async () => {
      const { admin } = surfaces[surface];
      const name = `taken-${surface}`;
      expect((await admin.call('POST', '/admin/groups', { name, displayName: 'First' })).status).toBe(201);
      const taken = await admin.call('POST', '/admin/groups', { name, displayName: 'Second' });
      expect(taken.status).toBe(400);
      expect(taken.body).toMatchObject({ error: 'invalid_request', field_errors: { name: 'already taken' } });
      const bad = await admin.call('POST', '/admin/groups', { name: 'Not A Slug', displayName: '', extra: 1 });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.field_errors).sort()).toEqual(['displayName', 'extra', 'name']);
      const noVersion = await admin.call('PATCH', `/admin/groups/${name}`, { displayName: 'x' });
      expect(noVersion.status).toBe(400);
      expect(noVersion.body.field_errors).toHaveProperty('expectedVersion');
      expect((await admin.call('PATCH', `/admin/groups/${name}`, { expectedVersion: '1' })).status).toBe(400);
    });

    it(`${surface}: puts people in a group idempotently without changing its version; the person's groups are on the admin User`, async () => {
      const { admin } = surfaces[surface];
      const name = `readers-${surface}`;
      expect((await admin.call('POST', '/admin/groups', { name, displayName: 'Readers' })).status).toBe(201);
      for (let i = 0; i < 2; i += 1) {
        const put = await admin.call('PUT', `/admin/groups/${name}/members/${people.pat.subjectId}`);
        expect(put.status, put.text).toBe(204);
      }
      expect((await admin.call('PUT', `/admin/groups/${name}/members/${people.quinn.subjectId}`)).status).toBe(204);
      expect((await admin.call('PUT', `/admin/groups/${name}/members/nobody-such`)).status).toBe(404);
      expect((await admin.call('PUT', `/admin/groups/no-such-group/members/${people.pat.subjectId}`)).status).toBe(404);

      const members = await admin.call('GET', `/admin/groups/${name}/members`);
      expect(members.status).toBe(200);
      expect(members.body.members).toEqual([
        { subjectId: people.pat.subjectId, account: 'pat', displayName: 'Pat', source: 'local' },
        { subjectId: people.quinn.subjectId, account: 'quinn', displayName: expect.stringMatching(/^Quinn/), source: 'local' },
      ]);
      const group = (await admin.call('GET', '/admin/groups')).body.groups.find((g: { name: string }) => g.name === name);
      expect(group).toMatchObject({ memberCount: 2, version: 1 });

      const users = (await admin.call('GET', '/admin/users')).body.users as { account: string; groups: string[] }[];
      expect(users.find((user) => user.account === 'pat')!.groups).toContain(name);
      expect(users.find((user) => user.account === 'boss')!.groups).toEqual([]);
      const updated = await admin.call('PATCH', `/admin/users/${people.quinn.subjectId}`, { displayName: 'Quinn Q' });
      expect(updated.body.user.groups).toContain(name);

      expect((await admin.call('DELETE', `/admin/groups/${name}/members/${people.quinn.subjectId}`)).status).toBe(204);
      expect((await admin.call('DELETE', `/admin/groups/${name}/members/${people.quinn.subjectId}`)).status).toBe(204);
      expect((await admin.call('GET', `/admin/groups/${name}/members`)).body.members.map((m: { account: string }) => m.account)).toEqual(['pat']);
      expect((await admin.call('GET', '/admin/groups')).body.groups.find((g: { name: string }) => g.name === name)).toMatchObject({ memberCount: 1, version: 1 });

      const audit = (await admin.call('GET', '/admin/audit-logs?limit=200')).body.auditLogs as { action: string; targetId: string; after: unknown; before: unknown }[];
      const memberEntries = audit.filter((entry) => entry.targetId === name && entry.action.startsWith('group.member')).reverse();
      // The second PUT of the same person changed nothing and wrote nothing, like the second DELETE.
      expect(memberEntries.map((entry) => entry.action)).toEqual(['group.member_add', 'group.member_add', 'group.member_remove']);
      expect(memberEntries[0]!.after).toEqual({ subjectId: people.pat.subjectId, source: 'local' });

      // Removing the group removes the memberships with it.
      expect((await admin.call('DELETE', `/admin/groups/${name}`, { expectedVersion: 1 })).status).toBe(204);
      const after = (await admin.call('GET', '/admin/users')).body.users as { account: string; groups: string[] }[];
      expect(after.find((user) => user.account === 'pat')!.groups).not.toContain(name);
    });

    it(`${surface}: a person who is no administrator is refused every group operation`, async () => {
      const { person, admin } = surfaces[surface];
      const name = `private-${surface}`;
      expect((await admin.call('POST', '/admin/groups', { name, displayName: 'Private' })).status).toBe(201);
      const calls: [Parameters<Caller['call']>[0], string, unknown?][] = [
        ['GET', '/admin/groups'],
        ['POST', '/admin/groups', { name: `mine-${surface}`, displayName: 'Mine' }],
        ['PATCH', `/admin/groups/${name}`, { expectedVersion: 1, displayName: 'Mine' }],
        ['DELETE', `/admin/groups/${name}`, { expectedVersion: 1 }],
        ['GET', `/admin/groups/${name}/members`],
        ['PUT', `/admin/groups/${name}/members/${people.pat.subjectId}`],
        ['DELETE', `/admin/groups/${name}/members/${people.pat.subjectId}`],
      ];
      for (const [method, path, body] of calls) {
        const answer = await person.call(method, path, body);
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.body.error).toBe('forbidden');
      }
      expect((await admin.call('GET', `/admin/groups/${name}/members`)).body.members).toEqual([]);
      expect((await admin.call('GET', '/admin/groups')).body.groups.find((g: { name: string }) => g.name === name).version).toBe(1);
    });
  }

  it('claimsInIdToken on every client type: default false at registration, set at registration and by the revision PUT', async () => {
    const { admin } = surfaces.agent;
    const project = (await admin.call('POST', '/projects', { name: 'Claims' })).body.project;
    const uris = { web: 'https://rp.example.com/cb', spa: 'https://spa.example.com/cb', native: 'http://127.0.0.1/cb' };
    for (const clientType of ['web', 'spa', 'native'] as const) {
      const plain = await admin.call('POST', `/projects/${project.projectId}/clients`, { clientType, displayName: `${clientType} plain`, redirectUris: [uris[clientType]], scopeWhitelist: ['openid', 'groups'] });
      expect(plain.status, plain.text).toBe(201);
      expect(plain.body.client).toMatchObject({ claimsInIdToken: false, scopeWhitelist: ['openid', 'groups'] });
      const withClaims = await admin.call('POST', `/projects/${project.projectId}/clients`, { clientType, displayName: `${clientType} claims`, redirectUris: [uris[clientType]], scopeWhitelist: ['openid', 'profile'], claimsInIdToken: true });
      expect(withClaims.status, withClaims.text).toBe(201);
      expect(withClaims.body.client.claimsInIdToken).toBe(true);

      const { clientId, clientVersion } = plain.body.client;
      const revised = await admin.call('PUT', `/projects/${project.projectId}/clients/${clientId}/revision`, { clientVersion, redirectUris: [uris[clientType]], scopeWhitelist: ['openid', 'groups'], claimsInIdToken: true });
      expect(revised.status, revised.text).toBe(200);
      expect(revised.body.client).toMatchObject({ claimsInIdToken: true, revision: 2 });
      const read = await admin.call('GET', `/projects/${project.projectId}/clients/${clientId}`);
      expect(read.body.client.claimsInIdToken).toBe(true);
      // The revision PUT replaces the configuration: left out, it is false again.
      const reset = await admin.call('PUT', `/projects/${project.projectId}/clients/${clientId}/revision`, { clientVersion: revised.body.client.clientVersion, redirectUris: [uris[clientType]], scopeWhitelist: ['openid', 'groups'] });
      expect(reset.body.client).toMatchObject({ claimsInIdToken: false, revision: 3 });
      const notBoolean = await admin.call('PUT', `/projects/${project.projectId}/clients/${clientId}/revision`, { clientVersion: reset.body.client.clientVersion, redirectUris: [uris[clientType]], scopeWhitelist: ['openid'], claimsInIdToken: 'yes' });
      expect(notBoolean.status).toBe(400);
      expect(notBoolean.body.field_errors).toHaveProperty('claimsInIdToken');
    }
    const audit = await ctx.db.selectFrom('audit_log').select(['action', 'after_json']).where('action', '=', 'client.revise').execute();
    expect(audit.some((entry) => JSON.parse(entry.after_json ?? '{}').claimsInIdToken === true)).toBe(true);
  });

  it('identity providers take groupMapping, the groups claim and the group search, and give them back', async () => {
    const { admin } = surfaces.console;
    const created = await admin.call('POST', '/admin/identity-providers', {
      type: 'ldap',
      name: 'groups-directory',
      displayName: 'Directory',
      provisioning: 'existing_only',
      ldap: { url: 'ldaps://ldap.example.edu', bindDn: 'cn=sesame,dc=example,dc=edu', bindPassword: 'pw', userSearchBase: 'ou=people,dc=example,dc=edu', groupSearchBase: 'ou=groups,dc=example,dc=edu' },
      groupMapping: { 'cn=Staff,ou=groups,dc=example,dc=edu': 'staff' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.identityProvider).toMatchObject({
      groupMapping: { 'cn=Staff,ou=groups,dc=example,dc=edu': 'staff' },
      ldap: { groupSearchBase: 'ou=groups,dc=example,dc=edu', groupSearchFilter: '(member={dn})' },
    });
    const bad = await admin.call('PATCH', '/admin/identity-providers/groups-directory', { expectedVersion: 1, groupMapping: { x: 'Not A Slug' }, ldap: { groupSearchFilter: '(member=*)' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.field_errors).sort()).toEqual(['groupMapping.x', 'ldap.groupSearchFilter']);
    const changed = await admin.call('PATCH', '/admin/identity-providers/groups-directory', { expectedVersion: 1, groupMapping: {}, ldap: { groupSearchFilter: '(uniqueMember={dn})' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.identityProvider).toMatchObject({ groupMapping: {}, ldap: { groupSearchFilter: '(uniqueMember={dn})' } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startUpstreamProvider, type UpstreamProvider } from '../helpers/upstream-oidc.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

const CLIENT_SECRET = 'the secret the upstream gave Sesame';
const BIND_PASSWORD = 'the directory bind password';

describe.each(TEST_ENGINES)('identity provider administration on both surfaces on %s', (engine) => {
  let ctx: TestContext;
  let upstream: UpstreamProvider;
  const surfaces = {} as Record<'agent' | 'console', { admin: ReturnType<typeof createAgentClient>; person: ReturnType<typeof createAgentClient> }>;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    upstream = await startUpstreamProvider([{ client_id: 'sesame', client_secret: CLIENT_SECRET, redirect_uris: ['http://localhost:3000/upstream/campus/callback'] }], {});
    await createAccounts(ctx.services, ['boss', 'pat'], ['boss']);
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
    await upstream?.stop();
    await ctx?.close();
  });

  const oidcInput = (name: string) => ({ type: 'oidc', name, displayName: `Campus ${name}`, provisioning: 'create', allowedEmailDomains: ['Example.EDU'], oidc: { issuer: upstream.issuer, clientId: 'sesame', clientSecret: CLIENT_SECRET } });
  const ldapInput = (name: string) => ({
    type: 'ldap', name, displayName: 'Directory', provisioning: 'existing_only',
    ldap: { url: 'ldaps://ldap.example.edu', bindDn: 'cn=sesame,dc=example,dc=edu', bindPassword: BIND_PASSWORD, userSearchBase: 'ou=people,dc=example,dc=edu', adminGroupDn: 'cn=admins,dc=example,dc=edu' },
  });

  for (const surface of ['agent', 'console'] as const) {
    it(`${surface}: adds an OpenID Connect provider after discovering its issuer, with defaults, never returning the secret`, async () => {
      const { admin } = surfaces[surface];
      const created = await admin.call('POST', '/admin/identity-providers', oidcInput(`campus-${surface}`));
      expect(created.status, created.text).toBe(201);
      expect(created.body.identityProvider).toMatchObject({
        type: 'oidc', name: `campus-${surface}`, enabled: true, provisioning: 'create', linkByVerifiedEmail: false, allowedEmailDomains: ['example.edu'],
        oidc: { issuer: upstream.issuer, clientId: 'sesame', scopes: ['openid', 'profile', 'email'], claims: { account: 'preferred_username', displayName: 'name', email: 'email', emailVerified: 'email_verified' } },
        hasClientSecret: true, version: 1,
      });
      expect(created.text).not.toContain(CLIENT_SECRET);
      expect(created.body.identityProvider).not.toHaveProperty('oidc.clientSecret');

      const listed = await admin.call('GET', '/admin/identity-providers');
      expect(listed.status).toBe(200);
      expect(listed.body.identityProviders.map((p: { name: string }) => p.name)).toContain(`campus-${surface}`);
      expect(listed.text).not.toContain(CLIENT_SECRET);
      const row = await ctx.db.selectFrom('identity_providers').selectAll().where('name', '=', `campus-${surface}`).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(CLIENT_SECRET);
      expect(row.secret_sealed).toMatch(/^v1\./);
      const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', `campus-${surface}`).execute();
      expect(audit.map((entry) => [entry.action, entry.surface])).toEqual([['identity_provider.create', surface]]);
      expect(JSON.stringify(audit)).not.toContain(CLIENT_SECRET);
    });

    it(`${surface}: adds an LDAP directory and changes and removes providers at the version read`, async () => {
      const { admin } = surfaces[surface];
      const created = await admin.call('POST', '/admin/identity-providers', ldapInput(`directory-${surface}`));
      expect(created.status, created.text).toBe(201);
      expect(created.body.identityProvider).toMatchObject({ type: 'ldap', hasBindPassword: true, ldap: { startTls: false, userSearchFilter: '(uid={account})', attributes: { account: 'uid', displayName: 'cn', email: 'mail' } } });
      expect(created.text).not.toContain(BIND_PASSWORD);

      const changed = await admin.call('PATCH', `/admin/identity-providers/directory-${surface}`, { expectedVersion: 1, enabled: false, ldap: { startTls: true, url: 'ldap://ldap.example.edu', bindPassword: BIND_PASSWORD } });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.identityProvider).toMatchObject({ enabled: false, version: 2, hasBindPassword: true, ldap: { startTls: true, url: 'ldap://ldap.example.edu', bindDn: 'cn=sesame,dc=example,dc=edu' } });
      const stale = await admin.call('PATCH', `/admin/identity-providers/directory-${surface}`, { expectedVersion: 1, enabled: true });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toBe('version_conflict');
      const wrongType = await admin.call('PATCH', `/admin/identity-providers/directory-${surface}`, { expectedVersion: 2, oidc: { clientId: 'x' } });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.field_errors).toHaveProperty('oidc');

      expect((await admin.call('DELETE', `/admin/identity-providers/directory-${surface}`, { expectedVersion: 1 })).status).toBe(409);
      expect((await admin.call('DELETE', `/admin/identity-providers/directory-${surface}`, { expectedVersion: 2 })).status).toBe(204);
      expect((await admin.call('DELETE', `/admin/identity-providers/directory-${surface}`, { expectedVersion: 2 })).status).toBe(404);
    });

    it(`${surface}: refuses an issuer whose discovery fails, a taken name and bad fields with 400 naming the fields`, async () => {
      const { admin } = surfaces[surface];
      const before = await ctx.db.selectFrom('identity_providers').select('name').execute();
      const unreachable = await admin.call('POST', '/admin/identity-providers', { ...oidcInput(`gone-${surface}`), oidc: { issuer: 'http://127.0.0.1:9/realms/none', clientId: 'sesame' } });
      expect(unreachable.status).toBe(400);
      expect(unreachable.body.error).toBe('invalid_request');
      expect(unreachable.body.field_errors['oidc.issuer']).toMatch(/discovery failed/);
      const otherIssuer = await admin.call('POST', '/admin/identity-providers', { ...oidcInput(`other-${surface}`), oidc: { issuer: `${upstream.issuer}/not-an-issuer`, clientId: 'sesame' } });
      expect(otherIssuer.status).toBe(400);
      expect(otherIssuer.body.field_errors).toHaveProperty(['oidc.issuer']);

      const taken = await admin.call('POST', '/admin/identity-providers', oidcInput(`campus-${surface}`));
      expect(taken.status).toBe(400);
      expect(taken.body.field_errors).toEqual({ name: 'already taken' });

      const bad = await admin.call('POST', '/admin/identity-providers', {
        type: 'oidc', name: 'Not A Slug', displayName: 'x', provisioning: 'sometimes', allowedEmailDomains: ['not a domain'],
        oidc: { issuer: 'http://login.example.edu', clientId: 'sesame', scopes: ['profile'] }, ldap: ldapInput('x').ldap,
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.field_errors).sort()).toEqual(['allowedEmailDomains.0', 'ldap', 'name', 'oidc.issuer', 'oidc.scopes', 'provisioning'].sort());
      expect(await ctx.db.selectFrom('identity_providers').select('name').execute()).toEqual(before);
    });

    it(`${surface}: answers the same creation again for the same Idempotency-Key`, async () => {
      const { admin } = surfaces[surface];
      const request = { method: 'POST' as const, path: '/admin/identity-providers', body: ldapInput(`retried-${surface}`), headers: { 'idempotency-key': `retry-${surface}-1` } };
      const first = await admin.request(request);
      const second = await admin.request(request);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.body.replayed).toBe(true);
      expect(second.body.identityProvider.name).toBe(`retried-${surface}`);
    });

    it(`${surface}: lets a person list and unlink their own linked identities`, async () => {
      const { admin, person } = surfaces[surface];
      const added = await admin.call('POST', '/admin/identity-providers', { ...ldapInput(`linking-${surface}`), linkByVerifiedEmail: true });
      expect(added.status, added.text).toBe(201);
      const pat = (await ctx.services.users.findByAccount('pat'))!;
      await ctx.services.users.updateUser({ subjectId: null, isAdmin: true, surface: 'cli', ip: null }, pat.subjectId, { email: 'pat@example.edu', emailVerified: true });
      const { identity } = await ctx.services.federatedSignIn.signIn({
        providerName: `linking-${surface}`, issuer: 'ldaps://ldap.example.edu', subject: 'uid=pat,ou=people,dc=example,dc=edu',
        attributes: { account: 'pat', displayName: 'Pat', email: 'pat@example.edu', emailVerified: true }, ip: null,
      });

      const listed = await person.call('GET', '/account/identities');
      expect(listed.status).toBe(200);
      expect(listed.body.identities).toEqual([{ identityId: identity.identityId, provider: `linking-${surface}`, displayName: 'Directory', linkedAt: expect.any(String), lastSignInAt: expect.any(String) }]);
      expect((await admin.call('GET', '/account/identities')).body).toEqual({ identities: [] });
      if (surface === 'console') {
        expect((await admin.call('DELETE', `/account/identities/${identity.identityId}`)).status).toBe(404);
        expect((await person.call('DELETE', `/account/identities/${identity.identityId}`)).status).toBe(204);
      } else {
        // Unlinking is the person's alone, in the console (DESIGN.md section 14).
        const refused = await person.call('DELETE', `/account/identities/${identity.identityId}`);
        expect([refused.status, refused.body.error]).toEqual([403, 'browser_only']);
        expect((await person.call('GET', '/account/identities')).body.identities).toHaveLength(1);
        await ctx.services.accountIdentities.removeIdentity({ subjectId: pat.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: ctx.clock.now() }, identity.identityId);
      }
      expect((await person.call('GET', '/account/identities')).body).toEqual({ identities: [] });
      const audit = await ctx.db.selectFrom('audit_log').select(['action', 'surface']).where('target_id', '=', pat.subjectId).where('action', 'like', 'identity.%').orderBy('at').execute();
      expect(audit).toEqual(expect.arrayContaining([{ action: 'identity.link', surface: 'system' }, { action: 'identity.unlink', surface: 'console' }]));
    });

    it(`${surface}: refuses every identity provider operation to a person who is not an administrator`, async () => {
      const { person } = surfaces[surface];
      const calls = [
        await person.call('GET', '/admin/identity-providers'),
        await person.call('POST', '/admin/identity-providers', ldapInput(`sneaky-${surface}`)),
        await person.call('PATCH', `/admin/identity-providers/campus-${surface}`, { expectedVersion: 1, enabled: false }),
        await person.call('DELETE', `/admin/identity-providers/campus-${surface}`, { expectedVersion: 1 }),
      ];
      expect(calls.map((c) => [c.status, c.body.error])).toEqual(Array(4).fill([403, 'forbidden']));
      expect((await ctx.db.selectFrom('identity_providers').selectAll().where('name', '=', `campus-${surface}`).executeTakeFirstOrThrow()).enabled).toBe(1);
      const mine = await person.call('GET', '/account/identities');
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual({ identities: [] });
    });
  }
});

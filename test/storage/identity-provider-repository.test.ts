import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/domain/accounts.ts';
import { DEFAULT_DIRECTORY_ATTRIBUTES, DEFAULT_UPSTREAM_CLAIMS, type StoredIdentityProvider, type UpstreamIdentity } from '../../src/domain/identity-providers.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

function anOidcProvider(name: string, overrides: Partial<Extract<StoredIdentityProvider, { type: 'oidc' }>> = {}): StoredIdentityProvider {
  return {
    type: 'oidc',
    name,
    displayName: `Provider ${name}`,
    enabled: true,
    provisioning: 'create',
    linkByVerifiedEmail: false,
    allowedEmailDomains: ['example.edu'],
    groupMapping: { 'campus-staff': 'staff' },
    oidc: { issuer: 'https://id.example.edu', clientId: 'sesame', scopes: ['openid', 'email'], claims: { ...DEFAULT_UPSTREAM_CLAIMS, account: 'uid' } },
    hasClientSecret: true,
    secretSealed: 'v1.sealed-secret',
    position: 1,
    version: 1,
    createdAt: 1_000,
    updatedAt: 1_000,
    ...overrides,
  };
}

function aDirectory(name: string, position: number): StoredIdentityProvider {
  return {
    type: 'ldap',
    name,
    displayName: 'Campus directory',
    enabled: false,
    provisioning: 'existing_only',
    linkByVerifiedEmail: true,
    allowedEmailDomains: [],
    groupMapping: {},
    ldap: { url: 'ldaps://ldap.example.edu', startTls: false, bindDn: 'cn=sesame,dc=example,dc=edu', userSearchBase: 'ou=people,dc=example,dc=edu', userSearchFilter: '(uid={account})', attributes: DEFAULT_DIRECTORY_ATTRIBUTES, adminGroupDn: null },
    hasBindPassword: false,
    secretSealed: null,
    position,
    version: 1,
    createdAt: 2_000,
    updatedAt: 2_000,
  };
}

function aUser(overrides: Partial<User> = {}): User {
  return { subjectId: randomUUID(), account: `user-${randomUUID().slice(0, 8)}`, displayName: 'Someone', email: null, emailVerified: false, studentStatus: 'unknown', isAdmin: false, status: 'active', createdAt: 1_000, updatedAt: 1_000, ...overrides };
}

describe.each(TEST_ENGINES)('identity provider and upstream identity repositories on %s', (engine) => {
  const suite = useMigratedStore(engine);

  it('stores providers of both types and gives back the same shapes, in their order, a name only once', async () => {
    const { identityProviders } = suite.store.repos;
    expect(await identityProviders.nextPosition()).toBe(1);
    const oidc = anOidcProvider('campus', { position: 2 });
    const ldap = aDirectory('directory', 1);
    expect(await identityProviders.insert(oidc)).toBe(true);
    expect(await identityProviders.insert(ldap)).toBe(true);
    expect(await identityProviders.insert(anOidcProvider('campus', { displayName: 'Another' }))).toBe(false);
    expect(await identityProviders.find('campus')).toEqual(oidc);
    expect(await identityProviders.find('directory')).toEqual(ldap);
    expect(await identityProviders.find('nothing')).toBeUndefined();
    expect(await identityProviders.find('ca\u0000mpus')).toBeUndefined();
    expect((await identityProviders.list()).map((p) => p.name)).toEqual(['directory', 'campus']);
    expect(await identityProviders.nextPosition()).toBe(3);
  });

  it('changes and removes a provider only at the version read, one writer winning', async () => {
    const { identityProviders } = suite.store.repos;
    await identityProviders.insert(anOidcProvider('versioned'));
    const changed = anOidcProvider('versioned', { displayName: 'Renamed', enabled: false, secretSealed: null, hasClientSecret: false, updatedAt: 5_000 });
    const outcomes = await Promise.all([1, 1, 1].map(() => suite.store.transaction((repos) => repos.identityProviders.replaceIfVersion(changed, 1))));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const stored = await identityProviders.find('versioned');
    expect(stored).toMatchObject({ displayName: 'Renamed', enabled: false, secretSealed: null, hasClientSecret: false, version: 2, createdAt: 1_000, updatedAt: 5_000 });
    expect(await identityProviders.replaceIfVersion(changed, 1)).toBe(false);
    expect(await identityProviders.replaceIfVersion(changed, 2 ** 40)).toBe(false);
    expect(await identityProviders.removeIfVersion('versioned', 1)).toBe(false);
    expect(await identityProviders.removeIfVersion('versioned', 2)).toBe(true);
    expect(await identityProviders.find('versioned')).toBeUndefined();
  });

  it('links an upstream account to one person once, lists a person\'s links and removes them', async () => {
    const alice = aUser();
    const bob = aUser();
    await suite.store.repos.users.insert(alice, 'hash');
    await suite.store.repos.users.insert(bob, '');
    const { upstreamIdentities } = suite.store.repos;
    const link = (identityId: string, subjectId: string, subject: string, providerName = 'campus'): UpstreamIdentity => ({
      identityId, providerName, issuer: 'https://id.example.edu', subject, subjectId, createdAt: 3_000, lastSignInAt: null,
    });
    expect(await upstreamIdentities.insert(link('idn_1', alice.subjectId, 'upstream-alice'))).toBe(true);
    const racing = await Promise.all([link('idn_2', bob.subjectId, 'upstream-x'), link('idn_3', alice.subjectId, 'upstream-x')].map((l) => suite.store.transaction((repos) => repos.upstreamIdentities.insert(l))));
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await upstreamIdentities.insert(link('idn_4', alice.subjectId, 'upstream-alice', 'other'))).toBe(true);

    expect(await upstreamIdentities.findByUpstream('campus', 'https://id.example.edu', 'upstream-alice')).toEqual(link('idn_1', alice.subjectId, 'upstream-alice'));
    expect(await upstreamIdentities.findByUpstream('campus', 'https://other.example.edu', 'upstream-alice')).toBeUndefined();
    await upstreamIdentities.recordSignIn('idn_1', 9_000);
    expect((await upstreamIdentities.find(alice.subjectId, 'idn_1'))?.lastSignInAt).toBe(9_000);
    expect(await upstreamIdentities.find(bob.subjectId, 'idn_1')).toBeUndefined();
    expect((await upstreamIdentities.listOf(alice.subjectId)).map((l) => l.identityId)).toEqual(expect.arrayContaining(['idn_1', 'idn_4']));

    expect(await upstreamIdentities.remove(bob.subjectId, 'idn_1')).toBe(false);
    expect(await upstreamIdentities.remove(alice.subjectId, 'idn_4')).toBe(true);
    const removed = await upstreamIdentities.removeAllOfProvider('campus');
    expect(removed.map((l) => l.identityId).sort()).toEqual(['idn_1', racing[0] ? 'idn_2' : 'idn_3'].sort());
    expect(await upstreamIdentities.listOf(alice.subjectId)).toEqual([]);
  });

  it('finds people by verified email only, whatever its case, and tells who has a password', async () => {
    const verified = aUser({ email: 'Carol@Example.edu', emailVerified: true });
    const unverified = aUser({ email: 'dave@example.edu', emailVerified: false });
    await suite.store.repos.users.insert(verified, '');
    await suite.store.repos.users.insert(unverified, '$argon2id$hash');
    expect((await suite.store.repos.users.listByVerifiedEmail('carol@example.EDU')).map((u) => u.subjectId)).toEqual([verified.subjectId]);
    expect(await suite.store.repos.users.listByVerifiedEmail('dave@example.edu')).toEqual([]);
    expect(await suite.store.repos.users.hasPassword(verified.subjectId)).toBe(false);
    expect(await suite.store.repos.users.hasPassword(unverified.subjectId)).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/domain/accounts.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

function aUser(account: string): User {
  return { subjectId: randomUUID(), account, displayName: `Person ${account}`, email: null, emailVerified: false, studentStatus: 'unknown', isAdmin: false, status: 'active', createdAt: 1_000, updatedAt: 1_000 };
}

const aGroup = (name: string) => ({ name, displayName: `Group ${name}`, description: '', version: 1, createdAt: 5_000, updatedAt: 5_000 });

describe.each(TEST_ENGINES)('group repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

  it('stores groups once by name, counts members, and changes or removes them only at the version read', async () => {
    const { groups, users } = suite.store.repos;
    expect(await groups.insert(aGroup('staff'))).toBe(true);
    expect(await groups.insert(aGroup('staff'))).toBe(false);
    expect(await groups.insert(aGroup('a-team'))).toBe(true);
    expect((await groups.list()).map((group) => [group.name, group.memberCount])).toEqual([['a-team', 0], ['staff', 0]]);

    const ann = aUser('ann');
    await users.insert(ann, 'hash');
    await groups.putMember('staff', ann.subjectId, 'local', 6_000);
    expect(await groups.find('staff')).toEqual({ ...aGroup('staff'), memberCount: 1 });

    expect(await groups.updateIfVersion('staff', 2, { displayName: 'Staff', description: 'x', updatedAt: 7_000 })).toBe(false);
    expect(await groups.updateIfVersion('staff', 1, { displayName: 'Staff', description: 'Everyone employed', updatedAt: 7_000 })).toBe(true);
    expect(await groups.find('staff')).toMatchObject({ displayName: 'Staff', description: 'Everyone employed', version: 2, updatedAt: 7_000, memberCount: 1 });
    // A version PostgreSQL's integer cannot hold is simply not the current one.
    expect(await groups.updateIfVersion('staff', 2 ** 40, { displayName: 'x', description: '', updatedAt: 1 })).toBe(false);

    expect(await groups.removeIfVersion('staff', 1)).toBe(false);
    expect(await groups.find('staff')).toBeDefined();
    expect(await groups.removeIfVersion('staff', 2)).toBe(true);
    expect(await groups.find('staff')).toBeUndefined();
    expect(await groups.groupNamesOf(ann.subjectId)).toEqual([]);
    expect(await groups.find('no\u0000such')).toBeUndefined();
  });

  it('keeps a person in a group once, with the source that manages the membership', async () => {
    const { groups, users } = suite.store.repos;
    for (const name of ['readers', 'writers', 'ops']) await groups.insert(aGroup(name));
    const bo = aUser('Bo');
    const cy = aUser('cy');
    await users.insert(bo, 'hash');
    await users.insert(cy, 'hash');

    await groups.putMember('writers', bo.subjectId, 'oidc:campus', 1);
    await groups.putMember('readers', bo.subjectId, 'ldap:directory', 1);
    await groups.putMember('ops', bo.subjectId, 'local', 1);
    await groups.putMember('readers', cy.subjectId, 'local', 1);
    expect(await groups.membershipSource('writers', bo.subjectId)).toBe('oidc:campus');
    await groups.putMember('writers', bo.subjectId, 'local', 2);
    expect(await groups.membershipSource('writers', bo.subjectId)).toBe('local');
    expect(await groups.membershipSource('writers', cy.subjectId)).toBeUndefined();

    expect(await groups.groupNamesOf(bo.subjectId)).toEqual(['ops', 'readers', 'writers']);
    const both = await groups.groupNamesOfPeople([bo.subjectId, cy.subjectId, 'nobody']);
    expect(Object.fromEntries(both)).toEqual({ [bo.subjectId]: ['ops', 'readers', 'writers'], [cy.subjectId]: ['readers'], nobody: [] });
    expect(await groups.namesFromSource(bo.subjectId, 'ldap:directory')).toEqual(['readers']);
    expect((await groups.listMembers('readers')).map((member) => [member.account, member.source])).toEqual([['Bo', 'ldap:directory'], ['cy', 'local']]);
    expect((await groups.list()).find((group) => group.name === 'readers')?.memberCount).toBe(2);
    expect(await groups.existing(['readers', 'ghosts', 'ops'])).toEqual(['ops', 'readers']);

    expect(await groups.removeAllFromSource('ldap:directory')).toBe(1);
    expect(await groups.groupNamesOf(bo.subjectId)).toEqual(['ops', 'writers']);
    expect(await groups.removeMember('ops', bo.subjectId)).toBe(true);
    expect(await groups.removeMember('ops', bo.subjectId)).toBe(false);
    expect(await groups.groupNamesOf(bo.subjectId)).toEqual(['writers']);
  });
});

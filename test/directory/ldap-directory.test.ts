import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DIRECTORY_ATTRIBUTES, DEFAULT_USER_SEARCH_FILTER, type DirectorySettings } from '../../src/domain/identity-providers.ts';
import { checkDirectoryPassword, DirectoryUnavailableError, type DirectoryConnection } from '../../src/directory/ldap-directory.ts';
import { ADMIN_GROUP_DN, PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';

describe.skipIf(!SLAPD_AVAILABLE)('the LDAP directory check against a real slapd', () => {
  let directory: TestDirectory;
  let connection: DirectoryConnection;

  const settings = (url: string, changes: Partial<DirectorySettings> = {}): DirectorySettings => ({
    url,
    startTls: false,
    bindDn: SERVICE_BIND.dn,
    userSearchBase: PEOPLE_DN,
    userSearchFilter: DEFAULT_USER_SEARCH_FILTER,
    attributes: DEFAULT_DIRECTORY_ATTRIBUTES,
    adminGroupDn: ADMIN_GROUP_DN,
    ...changes,
  });

  beforeAll(async () => {
    directory = await startTestDirectory();
    connection = { settings: settings(directory.url), bindPassword: SERVICE_BIND.password };
    await directory.addPerson({ uid: 'ada', cn: 'Ada Lovelace', mail: 'ada@example.org', password: 'analytical-engine' });
    await directory.addPerson({ uid: 'grace', cn: 'Grace Hopper', mail: 'grace@example.org', password: 'compiler-1952' });
    await directory.addAdmin('grace');
  });

  afterAll(async () => {
    await directory?.close();
  });

  it('binds as the entry the filter finds and reads the mapped attributes', async () => {
    const result = await checkDirectoryPassword(connection, 'ada', 'analytical-engine');
    expect(result).toMatchObject({ outcome: 'signed_in', entry: { dn: `uid=ada,${PEOPLE_DN}`, account: 'ada', displayName: 'Ada Lovelace', email: 'ada@example.org', isAdmin: false } });
    if (result.outcome !== 'signed_in') throw new Error('not signed in');
    expect(result.entry.subject).toMatch(/^[0-9a-f-]{36}$/);
    const again = await checkDirectoryPassword(connection, 'ada', 'analytical-engine');
    expect(again.outcome === 'signed_in' && again.entry.subject).toBe(result.entry.subject);
  });

  it('reads another attribute mapping', async () => {
    const byMail = { ...connection, settings: settings(directory.url, { userSearchFilter: '(mail={account})', attributes: { account: 'mail', displayName: 'sn', email: 'mail' } }) };
    expect(await checkDirectoryPassword(byMail, 'ada@example.org', 'analytical-engine')).toMatchObject({ outcome: 'signed_in', entry: { account: 'ada@example.org', displayName: 'Lovelace' } });
  });

  it('makes a member of the admin group an administrator, and nobody without a group set', async () => {
    expect(await checkDirectoryPassword(connection, 'grace', 'compiler-1952')).toMatchObject({ outcome: 'signed_in', entry: { isAdmin: true } });
    const noGroup = { ...connection, settings: settings(directory.url, { adminGroupDn: null }) };
    expect(await checkDirectoryPassword(noGroup, 'grace', 'compiler-1952')).toMatchObject({ outcome: 'signed_in', entry: { isAdmin: false } });
  });

  it('refuses a wrong password, an empty one, and an unknown account', async () => {
    expect(await checkDirectoryPassword(connection, 'ada', 'wrong')).toEqual({ outcome: 'wrong_password' });
    expect(await checkDirectoryPassword(connection, 'ada', '')).toEqual({ outcome: 'wrong_password' });
    expect(await checkDirectoryPassword(connection, 'nobody', 'analytical-engine')).toEqual({ outcome: 'not_found' });
  });

  it('finds nothing for filter syntax in the account name', async () => {
    for (const account of ['*', '*)(uid=*', 'ad*', 'ada)(|(uid=*', 'ada\\29', 'ada\0']) {
      expect(await checkDirectoryPassword(connection, account, 'analytical-engine'), account).toEqual({ outcome: 'not_found' });
    }
  });

  it('refuses a person removed from the directory, and a changed password', async () => {
    await directory.addPerson({ uid: 'linus', cn: 'Linus T', password: 'first-password' });
    expect((await checkDirectoryPassword(connection, 'linus', 'first-password')).outcome).toBe('signed_in');
    await directory.changePassword('linus', 'second-password');
    expect((await checkDirectoryPassword(connection, 'linus', 'first-password')).outcome).toBe('wrong_password');
    await directory.removePerson('linus');
    expect((await checkDirectoryPassword(connection, 'linus', 'second-password')).outcome).toBe('not_found');
  });

  it('refuses a person the directory has disabled (a locked entry)', async () => {
    await directory.addPerson({ uid: 'mallory', cn: 'Mallory M', password: 'locked-out-soon' });
    expect((await checkDirectoryPassword(connection, 'mallory', 'locked-out-soon')).outcome).toBe('signed_in');
    await directory.lockPerson('mallory');
    expect((await checkDirectoryPassword(connection, 'mallory', 'locked-out-soon')).outcome).toBe('wrong_password');
  });

  it('says the directory is unavailable when the service account is refused, or StartTLS is not offered', async () => {
    await expect(checkDirectoryPassword({ ...connection, bindPassword: 'not-it' }, 'ada', 'analytical-engine')).rejects.toThrow(/service account/);
    const startTls = { ...connection, settings: settings(directory.url, { startTls: true }) };
    await expect(checkDirectoryPassword(startTls, 'ada', 'analytical-engine')).rejects.toBeInstanceOf(DirectoryUnavailableError);
  });

  it('answers within its timeout when the directory hangs, and when it is stopped; works again once it is back', async () => {
    directory.freeze();
    try {
      const started = Date.now();
      await expect(checkDirectoryPassword(connection, 'ada', 'analytical-engine', 1_500)).rejects.toBeInstanceOf(DirectoryUnavailableError);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      directory.thaw();
    }
    await directory.stop();
    const started = Date.now();
    await expect(checkDirectoryPassword(connection, 'ada', 'analytical-engine')).rejects.toBeInstanceOf(DirectoryUnavailableError);
    expect(Date.now() - started).toBeLessThan(6_000);
    await directory.start();
    expect((await checkDirectoryPassword(connection, 'ada', 'analytical-engine')).outcome).toBe('signed_in');
  });
});

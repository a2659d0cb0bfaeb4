import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DIRECTORY_ATTRIBUTES, DEFAULT_USER_SEARCH_FILTER, type DirectorySettings } from '../../src/domain/identity-providers.ts';
import { checkDirectoryPassword, type DirectoryConnection } from '../../src/directory/ldap-directory.ts';
import { PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';

const ADAPTER = fileURLToPath(new URL('../../src/directory/ldap-directory.ts', import.meta.url));

/** The passwords only travel over TLS Sesame verified: StartTLS on ldap://, or ldaps://, with the system's (and NODE_EXTRA_CA_CERTS') authorities. */
describe.skipIf(!SLAPD_AVAILABLE)('LDAP over TLS against a real slapd', () => {
  let directory: TestDirectory;
  const connection = (url: string, startTls: boolean): DirectoryConnection => {
    const settings: DirectorySettings = {
      url,
      startTls,
      bindDn: SERVICE_BIND.dn,
      userSearchBase: PEOPLE_DN,
      userSearchFilter: DEFAULT_USER_SEARCH_FILTER,
      attributes: DEFAULT_DIRECTORY_ATTRIBUTES,
      adminGroupDn: null,
    };
    return { settings, bindPassword: SERVICE_BIND.password };
  };

  beforeAll(async () => {
    directory = await startTestDirectory({ tls: true });
    await directory.addPerson({ uid: 'ada', cn: 'Ada Lovelace', password: 'analytical-engine' });
  });
  afterAll(async () => {
    await directory?.close();
  });

  it('refuses a certificate no trusted authority signed, before sending any password', async () => {
    await expect(checkDirectoryPassword(connection(directory.url, true), 'ada', 'analytical-engine')).rejects.toThrow(/certificate/i);
    await expect(checkDirectoryPassword(connection(directory.ldapsUrl!, false), 'ada', 'analytical-engine')).rejects.toThrow(/certificate/i);
  });

  it('signs in over StartTLS and over ldaps:// once the certificate is trusted through NODE_EXTRA_CA_CERTS', async () => {
    // NODE_EXTRA_CA_CERTS is read when Node starts: the check runs in a Node of its own.
    const script = `
      import { checkDirectoryPassword } from ${JSON.stringify(ADAPTER)};
      const [startTls, ldaps] = JSON.parse(process.argv[1]);
      const results = [];
      for (const connection of [startTls, ldaps]) results.push((await checkDirectoryPassword(connection, 'ada', 'analytical-engine')).outcome);
      console.log(JSON.stringify(results));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([connection(directory.url, true), connection(directory.ldapsUrl!, false)])], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: directory.certificateFile! },
      timeout: 20_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual(['signed_in', 'signed_in']);
  });
});

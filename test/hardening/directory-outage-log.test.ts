import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';

const ADA = { uid: 'ada', cn: 'Ada Lovelace', password: 'analytical-engine-1843' };
const WRONG_BIND_PASSWORD = 'a-bind-password-the-directory-refuses';

/** A directory that refuses Sesame's service account: the login says 503, the log says why, and no password is written. */
describe.skipIf(!SLAPD_AVAILABLE)('a misconfigured directory, seen in the log', () => {
  let directory: TestDirectory;
  let ctx: TestContext;
  let logged = '';

  beforeAll(async () => {
    directory = await startTestDirectory();
    await directory.addPerson(ADA);
    const logStream = new Writable({ write: (chunk, _encoding, done) => ((logged += String(chunk)), done()) });
    ctx = await createTestContext('sqlite', { LOG_LEVEL: 'debug' }, { logStream });
    const admin: Actor = { subjectId: null, isAdmin: true, surface: 'cli', ip: null };
    await ctx.services.identityProviders.addProvider(admin, {
      type: 'ldap',
      name: 'example-ldap',
      displayName: 'Example directory',
      provisioning: 'create',
      ldap: { url: directory.url, bindDn: SERVICE_BIND.dn, bindPassword: WRONG_BIND_PASSWORD, userSearchBase: PEOPLE_DN },
    });
  });

  afterAll(async () => {
    await ctx?.close();
    await directory?.close();
  });

  it('answers 503 directory_unavailable, logs the cause, and logs neither password', async () => {
    const response = await createAgentClient(ctx.app).call('POST', '/auth/login', { account: ADA.uid, password: ADA.password });
    expect(response.status).toBe(503);
    expect(response.body.error).toBe('directory_unavailable');
    expect(response.text).not.toMatch(/service account|127\.0\.0\.1/);
    const lines = logged.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; err?: { message?: string; cause?: { message?: string } } });
    const warning = lines.find((line) => line.msg === 'directory unavailable');
    expect(JSON.stringify(warning)).toContain('refused the service account');
    expect(logged).not.toContain(WRONG_BIND_PASSWORD);
    expect(logged).not.toContain(ADA.password);
  });
});

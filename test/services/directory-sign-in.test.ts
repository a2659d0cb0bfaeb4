import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import type { SignInSource } from '../../src/services/people/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';

const admin: Actor = { subjectId: null, isAdmin: true, surface: 'cli', ip: null };
const from: SignInSource = { ip: '192.0.2.10', surface: 'agent' };

/** Several directories: tried in their order, the first that knows the account decides, one that is down only matters when no other knows it. */
describe.skipIf(!SLAPD_AVAILABLE).each(TEST_ENGINES)('sign-in through several LDAP directories on %s', (engine) => {
  let first: TestDirectory;
  let second: TestDirectory;
  let ctx: TestContext;

  const addDirectory = (name: string, directory: TestDirectory) =>
    ctx.services.identityProviders.addProvider(admin, {
      type: 'ldap',
      name,
      displayName: name,
      provisioning: 'create',
      ldap: { url: directory.url, bindDn: SERVICE_BIND.dn, bindPassword: SERVICE_BIND.password, userSearchBase: PEOPLE_DN },
    });

  beforeAll(async () => {
    [first, second] = await Promise.all([startTestDirectory(), startTestDirectory()]);
    await first.addPerson({ uid: 'sam', cn: 'Sam in the first', password: 'first-directory-pw' });
    await second.addPerson({ uid: 'sam', cn: 'Sam in the second', password: 'second-directory-pw' });
    await second.addPerson({ uid: 'tess', cn: 'Tess Second', password: 'tess-directory-pw' });
    ctx = await createTestContext(engine);
    await addDirectory('first', first);
    await addDirectory('second', second);
  });

  afterAll(async () => {
    await ctx?.close();
    await Promise.all([first?.close(), second?.close()]);
  });

  it('lets the first directory that knows the account decide', async () => {
    expect(await ctx.services.users.authenticate('sam', 'first-directory-pw', from)).toMatchObject({ account: 'sam', displayName: 'Sam in the first' });
    expect(await ctx.services.users.authenticate('sam', 'second-directory-pw', from)).toBeNull();
    expect(await ctx.services.users.authenticate('tess', 'tess-directory-pw', from)).toMatchObject({ account: 'tess', displayName: 'Tess Second' });
  });

  it('signs in through a later directory while an earlier one is down, and says 503 only when no directory that answered knows the account', async () => {
    await first.stop();
    try {
      expect(await ctx.services.users.authenticate('tess', 'tess-directory-pw', from)).toMatchObject({ account: 'tess' });
      await expect(ctx.services.users.authenticate('nobody-known', 'whatever-password', from)).rejects.toMatchObject({ code: 'directory_unavailable', retryAfterSeconds: 30 });
    } finally {
      await first.start();
    }
    expect(await ctx.services.users.authenticate('nobody-known', 'whatever-password', from)).toBeNull();
  });

  it('skips a disabled directory', async () => {
    const current = (await ctx.services.identityProviders.listProviders(admin)).find((provider) => provider.name === 'first')!;
    await ctx.services.identityProviders.changeProvider(admin, 'first', { expectedVersion: current.version, enabled: false });
    expect(await ctx.services.users.authenticate('tess', 'tess-directory-pw', from)).toMatchObject({ account: 'tess' });
    // Sam is linked to the first directory, which is disabled now: the second one does not take them over.
    await expect(ctx.services.users.authenticate('sam', 'second-directory-pw', from)).rejects.toMatchObject({ code: 'forbidden' });
  });
});

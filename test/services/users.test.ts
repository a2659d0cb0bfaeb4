import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor, type Actor } from '../../src/domain/actor.ts';
import { AppError } from '../../src/errors.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

/** A sign-in from inside the process, with no address: only the per-account limit counts it. */
const signInHere = { ip: null, surface: 'management' } as const;

describe.each(TEST_ENGINES)('user service on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  it('creates a user with an argon2id hash and authenticates case-insensitively', async () => {
    const user = await ctx.services.users.createUser(cliActor, { account: 'Alice', displayName: 'Alice A', password: 'correct horse battery' });
    const row = await ctx.db.selectFrom('users').selectAll().where('subject_id', '=', user.subjectId).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await ctx.services.users.authenticate('alice', 'correct horse battery', signInHere))?.subjectId).toBe(user.subjectId);
    expect(await ctx.services.users.authenticate('ALICE', 'wrong password', signInHere)).toBeNull();
    expect(await ctx.services.users.authenticate('nobody', 'correct horse battery', signInHere)).toBeNull();
    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.subjectId).execute();
    expect(audit.map((a) => a.action)).toEqual(['user.create']);
    expect(JSON.stringify(audit)).not.toContain('correct horse');
  });

  it('refuses a second account differing only in case, and changes nothing', async () => {
    const before = await ctx.services.users.countUsers();
    const attempt = ctx.services.users.createUser(cliActor, { account: 'ALICE', displayName: 'Other', password: 'another password' });
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_request', fieldErrors: { account: 'already taken' } });
    expect(await ctx.services.users.countUsers()).toBe(before);
  });

  it('finds no user for an account name no user can have (NUL, unpaired surrogate), and still pays the verification', async () => {
    for (const account of ['ali\u0000ce', 'ali\uD800ce']) {
      expect(await ctx.services.users.authenticate(account, 'correct horse battery', signInHere)).toBeNull();
      expect(await ctx.services.users.findByAccount(account)).toBeNull();
    }
  });

  it('refuses non-admins and disabled accounts', async () => {
    const nonAdmin: Actor = { subjectId: 'someone', isAdmin: false, surface: 'agent', ip: null };
    await expect(ctx.services.users.createUser(nonAdmin, { account: 'bob', displayName: 'Bob', password: 'password for bob' })).rejects.toBeInstanceOf(AppError);
    const bob = await ctx.services.users.createUser(cliActor, { account: 'bob', displayName: 'Bob', password: 'password for bob' });
    await ctx.services.users.updateUser(cliActor, bob.subjectId, { status: 'disabled' });
    expect(await ctx.services.users.authenticate('bob', 'password for bob', signInHere)).toBeNull();
  });
});

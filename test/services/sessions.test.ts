import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { sha256Hex } from '../../src/domain/digests.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { SESSION_LIFETIME_SECONDS } from '../../src/domain/limits.ts';

describe.each(TEST_ENGINES)('session service on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await ctx.services.users.createUser(cliActor, { account: 'carol', displayName: 'Carol', password: 'carol password 1' });
  });
  afterAll(() => ctx.close());

  it('issues random tokens stored only as digests, several per account, each valid on its own', async () => {
    const first = await ctx.services.sessions.login('Carol', 'carol password 1', { kind: 'agent', ip: '127.0.0.1' });
    const second = await ctx.services.sessions.login('carol', 'carol password 1', { kind: 'agent', ip: '127.0.0.1' });
    expect(first.token).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(first.token).not.toBe(second.token);
    expect(first.expiresIn).toBe(SESSION_LIFETIME_SECONDS);
    const rows = await ctx.db.selectFrom('sessions').selectAll().where('subject_id', '=', first.user.subjectId).execute();
    expect(rows.map((r) => r.token_digest).sort()).toEqual([sha256Hex(first.token), sha256Hex(second.token)].sort());
    expect(JSON.stringify(rows)).not.toContain(first.token);
    expect((await ctx.services.sessions.authenticate(first.token, 'agent'))?.user.account).toBe('carol');
    expect((await ctx.services.sessions.authenticate(second.token, 'agent'))?.user.account).toBe('carol');
    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'session.login').execute();
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain(first.token);
  });

  it('gives one answer for an unknown account, a wrong password and a disabled account, and writes nothing', async () => {
    const dave = await ctx.services.users.createUser(cliActor, { account: 'dave', displayName: 'Dave', password: 'dave password 1' });
    await ctx.services.users.updateUser(cliActor, dave.subjectId, { status: 'disabled' });
    const before = await ctx.db.selectFrom('sessions').selectAll().execute();
    const attempts = [
      ctx.services.sessions.login('nobody', 'carol password 1', { kind: 'agent', ip: null }),
      ctx.services.sessions.login('carol', 'wrong password', { kind: 'agent', ip: null }),
      ctx.services.sessions.login('dave', 'dave password 1', { kind: 'console', ip: null }),
    ];
    const errors = await Promise.all(attempts.map((a) => a.then(() => null, (e: unknown) => e)));
    for (const error of errors) expect(error).toMatchObject({ code: 'invalid_credentials', message: (errors[0] as Error).message });
    expect(await ctx.db.selectFrom('sessions').selectAll().execute()).toEqual(before);
  });

  it('refuses a token of the other kind, an unknown token and an expired one', async () => {
    const { token } = await ctx.services.sessions.login('carol', 'carol password 1', { kind: 'console', ip: null });
    expect(await ctx.services.sessions.authenticate(token, 'console')).not.toBeNull();
    expect(await ctx.services.sessions.authenticate(token, 'agent')).toBeNull();
    expect(await ctx.services.sessions.authenticate(`${token}x`, 'console')).toBeNull();
    expect(await ctx.services.sessions.authenticate('', 'console')).toBeNull();
    ctx.clock.advance(SESSION_LIFETIME_SECONDS * 1000 - 1);
    expect(await ctx.services.sessions.authenticate(token, 'console')).not.toBeNull();
    ctx.clock.advance(1);
    expect(await ctx.services.sessions.authenticate(token, 'console')).toBeNull();
  });

  it('ends a session at once on logout, leaving the account\'s other sessions alive', async () => {
    const kept = await ctx.services.sessions.login('carol', 'carol password 1', { kind: 'agent', ip: null });
    const ended = await ctx.services.sessions.login('carol', 'carol password 1', { kind: 'agent', ip: null });
    await ctx.services.sessions.logout(ended.token);
    expect(await ctx.services.sessions.authenticate(ended.token, 'agent')).toBeNull();
    expect(await ctx.services.sessions.authenticate(kept.token, 'agent')).not.toBeNull();
    await ctx.services.sessions.logout(ended.token);
    await ctx.services.sessions.logout('never-issued');
    const logouts = await ctx.db.selectFrom('audit_log').select('action').where('action', '=', 'session.logout').execute();
    expect(logouts).toHaveLength(1);
  });

  it('limits failed sign-ins inside the use case, whichever surface calls it, and reports them in the app\'s metrics', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'frank', displayName: 'Frank', password: 'frank password 1' });
    const from = { kind: 'console', ip: '203.0.113.9' } as const;
    const failuresBefore = ctx.app.metrics.signInCount('management', 'failure');
    // The default limit per account and address is 5 failures.
    for (let i = 0; i < 5; i++) await expect(ctx.services.sessions.login('frank', 'wrong password', from)).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(ctx.app.metrics.signInCount('management', 'failure') - failuresBefore).toBe(5);
    const sessionsBefore = await ctx.db.selectFrom('sessions').selectAll().execute();
    await expect(ctx.services.sessions.login('frank', 'frank password 1', from)).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    await expect(ctx.services.users.authenticate('FRANK', 'frank password 1', { ip: from.ip, surface: 'login_page' })).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await ctx.db.selectFrom('sessions').selectAll().execute()).toEqual(sessionsBefore);
    // Another address is not refused for this account's failures elsewhere.
    expect((await ctx.services.sessions.login('frank', 'frank password 1', { kind: 'agent', ip: '203.0.113.10' })).user.account).toBe('frank');
  });

  it('stops accepting the sessions of a user who is disabled', async () => {
    const erin = await ctx.services.users.createUser(cliActor, { account: 'erin', displayName: 'Erin', password: 'erin password 1' });
    const { token } = await ctx.services.sessions.login('erin', 'erin password 1', { kind: 'agent', ip: null });
    expect(await ctx.services.sessions.authenticate(token, 'agent')).not.toBeNull();
    // Flip the status directly too, so the check does not rest on updateUser revoking sessions.
    await ctx.db.updateTable('users').set({ status: 'disabled' }).where('subject_id', '=', erin.subjectId).execute();
    expect(await ctx.services.sessions.authenticate(token, 'agent')).toBeNull();
  });
});

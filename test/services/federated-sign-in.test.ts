import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { AppError } from '../../src/errors.ts';
import { FederatedSignInRefused, type FederatedSignInRequest } from '../../src/services/upstream/federated-person.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

// Directories need no discovery to be added, so they stand in for any provider type here: the use case is one for both.
const directory = (name: string, overrides: Record<string, unknown> = {}) => ({
  type: 'ldap' as const,
  name,
  displayName: `Directory ${name}`,
  provisioning: 'create' as const,
  ldap: { url: 'ldap://127.0.0.1:1', bindDn: 'cn=sesame,dc=example,dc=edu', bindPassword: 'directory secret', userSearchBase: 'ou=people,dc=example,dc=edu' },
  ...overrides,
});

async function refusal(promise: Promise<unknown>): Promise<FederatedSignInRefused> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(FederatedSignInRefused);
  expect((error as AppError).status).toBe(403);
  return error as FederatedSignInRefused;
}

describe.each(TEST_ENGINES)('federated sign-in (use case) on %s', (engine) => {
  let ctx: TestContext;
  const request = (providerName: string, subject: string, attributes: Partial<FederatedSignInRequest['attributes']> = {}): FederatedSignInRequest => ({
    providerName,
    issuer: 'ldap://127.0.0.1:1',
    subject,
    attributes: { account: null, displayName: null, email: null, emailVerified: false, ...attributes },
    ip: '192.0.2.9',
  });
  const auditActions = async (subjectId: string) =>
    (await ctx.db.selectFrom('audit_log').select(['action', 'surface']).where('target_id', '=', subjectId).orderBy('at').orderBy('audit_id').execute()).map((row) => `${row.surface}:${row.action}`);

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await ctx.services.identityProviders.addProvider(cliActor, directory('open'));
    await ctx.services.identityProviders.addProvider(cliActor, directory('strict', { provisioning: 'existing_only', linkByVerifiedEmail: true, allowedEmailDomains: ['Example.EDU'] }));
  });
  afterAll(() => ctx.close());

  it('provisions a person once with the mapped attributes, keeps their subjectId and refreshes the attributes at each sign-in', async () => {
    const first = await ctx.services.federatedSignIn.signIn(request('open', 'uid=erin', { account: 'erin', displayName: 'Erin E.', email: 'erin@example.org', emailVerified: false }));
    expect(first.outcome).toBe('provisioned');
    expect(first.user).toMatchObject({ account: 'erin', displayName: 'Erin E.', email: 'erin@example.org', emailVerified: false, isAdmin: false, status: 'active' });
    expect(await ctx.db.selectFrom('users').select('password_hash').where('subject_id', '=', first.user.subjectId).executeTakeFirstOrThrow()).toEqual({ password_hash: '' });

    ctx.clock.advance(60_000);
    const again = await ctx.services.federatedSignIn.signIn(request('open', 'uid=erin', { account: 'renamed', displayName: 'Erin Evans', email: 'erin@example.org', emailVerified: true }));
    expect(again.outcome).toBe('signed_in');
    expect(again.user.subjectId).toBe(first.user.subjectId);
    expect(await ctx.services.users.getUser(first.user.subjectId)).toMatchObject({ account: 'erin', displayName: 'Erin Evans', emailVerified: true });
    expect(again.identity.lastSignInAt).toBe(ctx.clock.now());
    expect(await auditActions(first.user.subjectId)).toEqual(['system:user.create', 'system:identity.link', 'system:user.update']);
  });

  it('never marks an address verified the upstream does not verify, and refuses a disabled person', async () => {
    const first = await ctx.services.federatedSignIn.signIn(request('open', 'uid=fay', { account: 'fay', email: 'fay@example.org', emailVerified: true }));
    const changed = await ctx.services.federatedSignIn.signIn(request('open', 'uid=fay', { account: 'fay', email: 'fay@elsewhere.org', emailVerified: false }));
    expect(changed.user).toMatchObject({ email: 'fay@elsewhere.org', emailVerified: false });
    await ctx.services.users.updateUser(cliActor, first.user.subjectId, { status: 'disabled' });
    expect((await refusal(ctx.services.federatedSignIn.signIn(request('open', 'uid=fay', { account: 'fay' })))).reason).toBe('account_disabled');
  });

  it('stores an upstream-verified address another person holds verified as unverified: a verified address belongs to one account', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'owner', displayName: 'Owner', email: 'owned@example.org', emailVerified: true, password: 'a long enough password' });
    const provisioned = await ctx.services.federatedSignIn.signIn(request('open', 'uid=copycat', { account: 'copycat', email: 'Owned@example.org', emailVerified: true }));
    expect(provisioned.user).toMatchObject({ email: 'Owned@example.org', emailVerified: false });
    const again = await ctx.services.federatedSignIn.signIn(request('open', 'uid=copycat', { account: 'copycat', email: 'owned@example.org', emailVerified: true }));
    expect(again.user).toMatchObject({ emailVerified: false });
    expect(await ctx.services.users.findByAccount('owner')).toMatchObject({ email: 'owned@example.org', emailVerified: true });
  });

  it('refuses a clash of account names clearly instead of taking over the existing account', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'gus', displayName: 'Local Gus', password: 'a long enough password' });
    const refused = await refusal(ctx.services.federatedSignIn.signIn(request('open', 'uid=gus', { account: 'gus' })));
    expect(refused.reason).toBe('account_name_taken');
    expect(refused.message).toMatch(/already named gus/);
    expect(await ctx.db.selectFrom('upstream_identities').selectAll().where('subject', '=', 'uid=gus').execute()).toEqual([]);
  });

  it('links by a verified email only when both sides are verified, and otherwise refuses under existing_only', async () => {
    const hana = await ctx.services.users.createUser(cliActor, { account: 'hana', displayName: 'Hana', email: 'Hana@example.edu', emailVerified: true, password: 'a long enough password' });

    const unverified = await refusal(ctx.services.federatedSignIn.signIn(request('strict', 'upstream-hana', { account: 'hana', email: 'hana@example.edu', emailVerified: false })));
    expect(unverified.reason).toBe('no_matching_account');
    expect(await ctx.services.accountIdentities.listIdentities({ ...cliActor, subjectId: hana.subjectId, isAdmin: false })).toEqual([]);

    const linked = await ctx.services.federatedSignIn.signIn(request('strict', 'upstream-hana', { account: 'hana', email: 'hana@EXAMPLE.edu', emailVerified: true }));
    expect(linked).toMatchObject({ outcome: 'linked_by_email', user: { subjectId: hana.subjectId } });
    expect(await auditActions(hana.subjectId)).toContain('system:identity.link');

    expect((await refusal(ctx.services.federatedSignIn.signIn(request('strict', 'upstream-ivan', { account: 'ivan', email: 'ivan@example.edu', emailVerified: true })))).reason).toBe('no_matching_account');
    expect(await ctx.services.users.findByAccount('ivan')).toBeNull();
  });

  it('enforces the allowed email domains at every sign-in', async () => {
    const refused = await refusal(ctx.services.federatedSignIn.signIn(request('strict', 'upstream-hana', { email: 'hana@example.com', emailVerified: true })));
    expect(refused.reason).toBe('email_domain_not_allowed');
    expect(refused.message).toContain('example.edu');
    expect((await refusal(ctx.services.federatedSignIn.signIn(request('strict', 'upstream-hana', {})))).reason).toBe('email_domain_not_allowed');
  });

  it('refuses a provider that is disabled or unknown', async () => {
    const [open] = (await ctx.services.identityProviders.listProviders(cliActor)).filter((p) => p.name === 'open');
    await ctx.services.identityProviders.changeProvider(cliActor, 'open', { expectedVersion: open!.version, enabled: false });
    expect((await refusal(ctx.services.federatedSignIn.signIn(request('open', 'uid=erin', { account: 'erin' })))).reason).toBe('provider_unavailable');
    expect((await refusal(ctx.services.federatedSignIn.signIn(request('nothing', 'x')))).reason).toBe('provider_unavailable');
    await ctx.services.identityProviders.changeProvider(cliActor, 'open', { expectedVersion: open!.version + 1, enabled: true });
  });

  it('lets a person remove a link unless it is their last way to sign in', async () => {
    const jo = (await ctx.services.federatedSignIn.signIn(request('open', 'uid=jo', { account: 'jo', email: 'jo@example.edu', emailVerified: true }))).user;
    ctx.clock.advance(1_000);
    // Unlinking is person-only: a console session that proved the person just now (DESIGN.md section 14).
    const actor = { subjectId: jo.subjectId, isAdmin: false, surface: 'console' as const, ip: null, provenAt: ctx.clock.now() };
    const second = await ctx.services.federatedSignIn.signIn({ ...request('strict', 'upstream-jo', { email: 'jo@example.edu', emailVerified: true }) });
    expect(second.user.subjectId).toBe(jo.subjectId);
    const identities = await ctx.services.accountIdentities.listIdentities(actor);
    expect(identities.map((i) => [i.provider, i.displayName])).toEqual([['open', 'Directory open'], ['strict', 'Directory strict']]);

    await ctx.services.accountIdentities.removeIdentity(actor, identities[1]!.identityId);
    const last = await ctx.services.accountIdentities.removeIdentity(actor, identities[0]!.identityId).catch((error: unknown) => error);
    expect(last).toBeInstanceOf(AppError);
    expect((last as AppError).code).toBe('last_sign_in_method');
    expect((last as AppError).status).toBe(409);
    await expect(ctx.services.accountIdentities.removeIdentity(actor, 'idn_unknown')).rejects.toMatchObject({ code: 'not_found' });
    expect(await auditActions(jo.subjectId)).toContain('console:identity.unlink');
  });

  it('links one upstream account once when two first sign-ins race', async () => {
    const results = await Promise.allSettled([1, 2, 3].map(() => ctx.services.federatedSignIn.signIn(request('open', 'uid=kim', { account: 'kim' }))));
    const subjects = new Set(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.user.subjectId] : [])));
    expect(subjects.size).toBe(1);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
  });
});

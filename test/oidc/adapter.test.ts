import { errors, type AdapterPayload } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { createOidcAdapterFactory } from '../../src/oidc/adapter.ts';
import { createStore } from '../../src/storage/store.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

describe.each(TEST_ENGINES)('oidc-provider adapter over oidc_payloads on %s', (engine) => {
  let ctx: TestContext;
  let adapterFor: ReturnType<typeof createOidcAdapterFactory>['adapterFor'];
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    adapterFor = createOidcAdapterFactory({ store: createStore(ctx.db, engine), clock: ctx.clock }).adapterFor;
  });
  afterAll(() => ctx.close());

  it('stores, finds, replaces and destroys a payload per model', async () => {
    const tokens = adapterFor('AccessToken');
    const payload: AdapterPayload = { jti: 'at-1', kind: 'AccessToken', grantId: 'g-1', accountId: 'acc', scope: 'openid' };
    await tokens.upsert('at-1', payload, 3600);
    expect(await tokens.find('at-1')).toEqual(payload);
    expect(await adapterFor('RefreshToken').find('at-1')).toBeUndefined();
    await tokens.upsert('at-1', { ...payload, scope: 'openid profile' }, 3600);
    expect((await tokens.find('at-1'))?.scope).toBe('openid profile');
    await tokens.destroy('at-1');
    expect(await tokens.find('at-1')).toBeUndefined();
  });

  it('skips a session save that only slides its expiry by less than a minute, and writes any other', async () => {
    const sessions = adapterFor('Session');
    const session: AdapterPayload = { jti: 'sess-1', kind: 'Session', accountId: 'sliding-person', loginTs: 1_000, exp: 100_000 };
    await sessions.upsert('sess-1', session, 86_400);
    // oidc-provider loads a session, then saves it with its keys in another order and a later expiry.
    const { kind, jti, ...rest } = (await sessions.find('sess-1'))!;
    await sessions.upsert('sess-1', { ...rest, jti, kind, exp: 100_030 }, 86_400);
    expect((await sessions.find('sess-1'))?.exp).toBe(100_000);
    await sessions.upsert('sess-1', { ...session, exp: 100_060 }, 86_400);
    expect((await sessions.find('sess-1'))?.exp).toBe(100_060);
    const withClient = { ...session, authorizations: { 'some-client': { sid: 's', grantId: 'g' } }, exp: 100_061 };
    await sessions.upsert('sess-1', withClient, 86_400);
    expect(await sessions.find('sess-1')).toEqual(withClient);

    // Ended elsewhere (a password reset) while a request held it: that request's sliding save does not bring it back.
    await createStore(ctx.db, engine).repos.oidcPayloads.revokeAllForAccount('sliding-person');
    await sessions.upsert('sess-1', { ...withClient, exp: 100_062 }, 86_400);
    expect(await sessions.find('sess-1')).toBeUndefined();
  });

  it('treats an expired row as absent', async () => {
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('code-1', { jti: 'code-1', kind: 'AuthorizationCode' }, 60);
    expect(await codes.find('code-1')).toBeDefined();
    ctx.clock.advance(61_000);
    try {
      expect(await codes.find('code-1')).toBeUndefined();
    } finally {
      ctx.clock.advance(-61_000);
    }
  });

  it('marks a consumed payload, as oidc-provider detects code and refresh token reuse by it', async () => {
    const refresh = adapterFor('RefreshToken');
    await refresh.upsert('rt-1', { jti: 'rt-1', kind: 'RefreshToken', grantId: 'g-2' }, 3600);
    expect((await refresh.find('rt-1'))?.consumed).toBeUndefined();
    await refresh.consume('rt-1');
    expect((await refresh.find('rt-1'))?.consumed).toEqual(expect.any(Number));
  });

  it('consumes once: of concurrent consumers exactly one wins, the others fail as a reuse and revoke the grant', async () => {
    const refresh = adapterFor('RefreshToken');
    const access = adapterFor('AccessToken');
    const grants = adapterFor('Grant');
    await grants.upsert('g-race', { jti: 'g-race', accountId: 'acc' }, 3600);
    await refresh.upsert('rt-race', { jti: 'rt-race', kind: 'RefreshToken', grantId: 'g-race' }, 3600);
    await refresh.upsert('rt-next', { jti: 'rt-next', kind: 'RefreshToken', grantId: 'g-race' }, 3600);
    await access.upsert('at-race', { jti: 'at-race', grantId: 'g-race' }, 3600);
    await grants.upsert('g-other', { jti: 'g-other', accountId: 'acc' }, 3600);
    await refresh.upsert('rt-other', { jti: 'rt-other', kind: 'RefreshToken', grantId: 'g-other' }, 3600);

    const results = await Promise.allSettled(Array.from({ length: 10 }, () => refresh.consume('rt-race')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures).toHaveLength(9);
    for (const failure of failures) {
      expect(failure.reason).toBeInstanceOf(errors.InvalidGrant);
      expect((failure.reason as InstanceType<typeof errors.InvalidGrant>).error).toBe('invalid_grant');
    }

    expect(await grants.find('g-race')).toBeUndefined();
    expect(await refresh.find('rt-race')).toBeUndefined();
    expect(await refresh.find('rt-next')).toBeUndefined();
    expect(await access.find('at-race')).toBeUndefined();
    expect(await grants.find('g-other')).toBeDefined();
    expect(await refresh.find('rt-other')).toBeDefined();
  });

  it('revokes every artifact of a grant, model by model, and nothing of other grants', async () => {
    const access = adapterFor('AccessToken');
    const refresh = adapterFor('RefreshToken');
    await access.upsert('at-a', { jti: 'at-a', grantId: 'grant-a' }, 3600);
    await access.upsert('at-b', { jti: 'at-b', grantId: 'grant-b' }, 3600);
    await refresh.upsert('rt-a', { jti: 'rt-a', grantId: 'grant-a' }, 3600);
    await access.revokeByGrantId('grant-a');
    expect(await access.find('at-a')).toBeUndefined();
    expect(await access.find('at-b')).toBeDefined();
    expect(await refresh.find('rt-a')).toBeDefined();
    await refresh.revokeByGrantId('grant-a');
    expect(await refresh.find('rt-a')).toBeUndefined();
  });

  it('finds a session by its uid, and keeps a payload without expiry', async () => {
    const sessions = adapterFor('Session');
    await sessions.upsert('sess-1', { jti: 'sess-1', uid: 'uid-1', accountId: 'acc' }, 600);
    // The session's id is its cookie's value, stored only as a digest: found by uid, it comes without it.
    expect(await sessions.findByUid('uid-1')).toEqual({ uid: 'uid-1', accountId: 'acc' });
    expect(await sessions.findByUid('uid-2')).toBeUndefined();
    const grants = adapterFor('Grant');
    await grants.upsert('grant-x', { jti: 'grant-x', accountId: 'acc' });
    ctx.clock.advance(10 * 365 * 24 * 3600 * 1000);
    try {
      expect(await grants.find('grant-x')).toBeDefined();
      expect(await sessions.findByUid('uid-1')).toBeUndefined();
    } finally {
      ctx.clock.advance(-10 * 365 * 24 * 3600 * 1000);
    }
  });

  it('reads clients from the clients table: active ones only, never written through the protocol', async () => {
    const clients = adapterFor('Client');
    const admin = (await ctx.services.users.findByAccount('admin'))!;
    const actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli' as const, ip: null };
    const project = await ctx.services.projects.createProject(actor, { name: 'Adapter' });
    const { client, secret } = await ctx.services.clients.registerClient(actor, project.projectId, {
      clientType: 'web',
      displayName: 'Adapter web',
      redirectUris: ['https://rp.example.com/cb'],
      scopeWhitelist: ['openid', 'email', 'offline_access'],
    });
    const metadata = await clients.find(client.clientId);
    expect(metadata).toMatchObject({
      client_id: client.clientId,
      client_name: 'Adapter web',
      redirect_uris: ['https://rp.example.com/cb'],
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid email offline_access',
    });
    // The secret's digest comes with the client, for the secrets bridge; the secret itself never does.
    expect(metadata!.sesame_secrets).toEqual([{ secretId: client.secrets[0]!.secretId, digest: sha256Hex(secret!.value), status: 'active', expiresAt: null, lastUsedAt: null }]);
    expect(JSON.stringify(metadata)).not.toContain(secret!.value);
    expect(metadata!.client_secret).not.toBe(secret!.value);
    expect(await clients.find('unknown')).toBeUndefined();
    await expect(clients.upsert('x', { client_id: 'x' })).rejects.toThrow(/management APIs/);

    await ctx.services.clients.updateClientMetadata(actor, project.projectId, client.clientId, { clientVersion: client.clientVersion, status: 'disabled' });
    expect(await clients.find(client.clientId)).toBeUndefined();
  });
});

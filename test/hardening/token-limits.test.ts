import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

const REDIRECT_URI = 'https://rp.example.test/callback';

interface WebClient {
  clientId: string;
  basic: string;
}

async function setUp(ctx: TestContext) {
  const admin = await ctx.services.users.createUser(systemActor, { account: 'owner', displayName: 'Owner', password: 'owner-password-1', isAdmin: true });
  const actor: Actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli', ip: null };
  const person = await ctx.services.users.createUser(actor, { account: 'alice', displayName: 'Alice', password: 'alice-password-1' });
  const project = await ctx.services.projects.createProject(actor, { name: 'Busy back end' });
  const register = async (): Promise<WebClient> => {
    const { client, secret } = await ctx.services.clients.registerClient(actor, project.projectId, { clientType: 'web', displayName: 'Busy RP', redirectUris: [REDIRECT_URI], scopeWhitelist: ['openid', 'offline_access'] });
    return { clientId: client.clientId, basic: `Basic ${Buffer.from(`${client.clientId}:${secret!.value}`).toString('base64')}` };
  };

  /** A code as /auth would issue it after Alice consented (minted through the provider, to keep the test about /token). */
  async function mintCode(client: WebClient): Promise<{ code: string; verifier: string }> {
    const provider = ctx.app.oidc.current();
    const grant = new provider.Grant({ accountId: person.subjectId, clientId: client.clientId });
    grant.addOIDCScope('openid offline_access');
    const grantId = await grant.save();
    const verifier = randomBytes(32).toString('base64url');
    const code = new provider.AuthorizationCode({
      client: (await provider.Client.find(client.clientId))!,
      gty: 'authorization_code',
      accountId: person.subjectId,
      grantId,
      scope: 'openid offline_access',
      redirectUri: REDIRECT_URI,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
      authTime: Math.floor(Date.now() / 1000),
    });
    return { code: await code.save(), verifier };
  }

  const token = (client: WebClient | { basic: string }, form: Record<string, string>) =>
    ctx.app.inject({ method: 'POST', url: '/token', headers: { authorization: client.basic, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
  const exchange = async (client: WebClient, minted: { code: string; verifier: string }) =>
    token(client, { grant_type: 'authorization_code', code: minted.code, redirect_uri: REDIRECT_URI, code_verifier: minted.verifier });
  const refresh = (client: WebClient, refreshToken: string) => token(client, { grant_type: 'refresh_token', refresh_token: refreshToken });

  return { register, mintCode, token, exchange, refresh };
}

describe.each(TEST_ENGINES)('token endpoint limits at their defaults on %s', (engine) => {
  let ctx: TestContext;
  let rp: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    rp = await setUp(ctx);
  });
  afterAll(() => ctx.close());

  it('a busy back end, from one address, exchanges codes and refreshes tokens as fast as it can for a minute\'s worth without a 429', { timeout: 180_000 }, async () => {
    const client = await rp.register();
    // 20 parallel chains, each exchanging a code and then refreshing: 1320 successful requests, well inside a minute.
    const chains = 20;
    const rounds = 33;
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const codes = await Promise.all(Array.from({ length: chains * rounds }, () => rp.mintCode(client)));
    const started = Date.now();
    await Promise.all(
      Array.from({ length: chains }, async (_, chain) => {
        for (let round = 0; round < rounds; round += 1) {
          const exchanged = await rp.exchange(client, codes[chain * rounds + round]!);
          count(exchanged.statusCode);
          const refreshed = await rp.refresh(client, exchanged.json().refresh_token as string);
          count(refreshed.statusCode);
        }
      }),
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(Object.fromEntries(statuses)).toEqual({ 200: chains * rounds * 2 });
  });

  it('50 failed client authentications from one address within a minute are throttled with 429 slow_down', async () => {
    const client = await rp.register();
    const wrong = { basic: `Basic ${Buffer.from(`${client.clientId}:not-the-secret`).toString('base64')}` };
    const answers = await Promise.all(Array.from({ length: 50 }, () => rp.token(wrong, { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT_URI })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ error: 'slow_down' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toBe('no-store');
    // The address stays refused, before any credential is checked, even with the right secret.
    const after = await rp.exchange(client, await rp.mintCode(client));
    expect(after.statusCode).toBe(429);
  });
});

describe.each(TEST_ENGINES)('token endpoint failure counts per client on %s', (engine) => {
  let ctx: TestContext;
  let rp: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { TOKEN_MAX_INVALID_GRANTS_PER_CLIENT: '5', TOKEN_MAX_FAILURES_PER_IP: '0' });
    rp = await setUp(ctx);
  });
  afterAll(() => ctx.close());

  it('an authenticated client sending invalid grants is held after its limit; another client, and strangers naming it, are not counted against it', async () => {
    const storming = await rp.register();
    const bystander = await rp.register();
    const bogus = { grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) };
    // Strangers naming the client without its secret: counted against their address's failed authentications, never against the client.
    for (let i = 0; i < 8; i += 1) expect((await rp.token({ basic: `Basic ${Buffer.from(`${storming.clientId}:wrong`).toString('base64')}` }, bogus)).statusCode).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await rp.token(storming, bogus)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    expect((await rp.exchange(bystander, await rp.mintCode(bystander))).statusCode).toBe(200);
  });
});

import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isLoginPage, OidcUserAgent, type PageResponse } from '../helpers/oidc-user-agent.ts';
import { redisReachable, TEST_REDIS_URL } from '../hardening/helpers/redis.ts';

const STORES = [
  ...TEST_ENGINES.map((engine) => ({ engine, store: 'in-process' as const })),
  // The Redis store holds the same counters for every instance; one engine is enough to show it keeps this cap.
  ...((await redisReachable()) ? [{ engine: TEST_ENGINES[0]!, store: 'redis' as const }] : []),
];

/**
 * The cap on wrong one-time codes (DESIGN 13): after 10 wrong codes for one account within 15 minutes, from
 * any address, the account's one-time-code step answers 429 with Retry-After whatever the code, at the OIDC
 * login page and at the management logins alike. Only someone past the first proof reaches this step.
 */
describe.each(STORES)('the cap on wrong one-time codes on $engine with the $store limit store', ({ engine, store }) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let secret: string;
  const codeNow = () => generate({ secret, epoch: Math.floor(server.clock.now() / 1000) });

  beforeAll(async () => {
    // The per-address and per-account password limits are lifted here, so only the cap on codes can refuse.
    server = await startOidcTestServer(engine, {
      SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '1000',
      SIGNIN_MAX_FAILURES_PER_ACCOUNT: '1000',
      ...(store === 'redis' ? { REDIS_URL: TEST_REDIS_URL } : {}),
    });
    fixture = await setUpOidcFixture(server);
    const alice: Actor = { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: server.clock.now() };
    const started = await server.services.factors.startTotp(alice, { name: 'Phone' });
    secret = started.secret;
    await server.services.factors.confirmTotp(alice, started.factorId, await codeNow());
    server.clock.advance(30_000);
  });
  afterAll(() => server?.close());

  async function oneTimeCodeStep() {
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    const login = await agent.follow(request.url);
    expect(isLoginPage(login)).toBe(true);
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(login.body)![1]!;
    const page = await agent.follow(action, { form: { csrf: csrfTokenOf(login), account: PERSON.account, password: PERSON.password } });
    expect(page.body).toMatch(/name="otp"/);
    const form = { action: /action="(\/interaction\/[^"]+\/otp)"/.exec(page.body)![1]!, csrf: csrfTokenOf(page), ticket: /name="ticket" value="([^"]+)"/.exec(page.body)![1]! };
    return { agent, form, submit: (otp: string): Promise<PageResponse> => agent.follow(form.action, { form: { csrf: form.csrf, ticket: form.ticket, otp } }) };
  }

  const wrongCode = async () => ((await codeNow()) === '000000' ? '111111' : '000000');

  it('answers 429 with Retry-After to the 11th code, even the right one, and keeps answering it for the account', async () => {
    const step = await oneTimeCodeStep();
    // Ten wrong codes, in parallel as a guesser would send them: each is refused as wrong, none slips past the cap.
    const wrong = await Promise.all(Array.from({ length: 10 }, async () => step.submit(await wrongCode())));
    expect(wrong.map((page) => page.status)).toEqual(Array(10).fill(401));

    const right = await step.submit(await codeNow());
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(right.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(right.location).toBeNull();
    expect(right.body).toMatch(/role="alert"/);

    // Another sign-in of the same account (another interaction, another browser) meets the same cap.
    const again = await oneTimeCodeStep();
    expect((await again.submit(await codeNow())).status).toBe(429);

    // And so does the management login's code, whatever the code.
    const login = await fetch(`${server.issuer}/api/agent/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: PERSON.account, password: PERSON.password, otp: await codeNow() }),
    });
    expect(login.status).toBe(429);
    expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await login.json()) as { error: string }).error).toBe('rate_limited');
  });
});

import { generate } from 'otplib';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isConsentPage, isLoginPage, OidcUserAgent, type PageResponse } from '../helpers/oidc-user-agent.ts';

/** The login page's second step: after a correct password, a person with an authenticator is asked for `otp`. */
describe.each(TEST_ENGINES)('OIDC login with a second factor on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let secret: string;
  let recoveryCodes: string[];
  const codeNow = () => generate({ secret, epoch: Math.floor(server.clock.now() / 1000) });

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    const alice: Actor = { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: server.clock.now() };
    const started = await server.services.factors.startTotp(alice, { name: 'Phone' });
    secret = started.secret;
    const confirmed = await server.services.factors.confirmTotp(alice, started.factorId, await codeNow());
    recoveryCodes = confirmed.recoveryCodes!;
    server.clock.advance(30_000);
  });
  afterAll(() => server.close());

  async function passwordStep() {
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, fixture.web, 'openid profile', { prompt: 'consent' });
    const login = await agent.follow(request.url);
    expect(isLoginPage(login)).toBe(true);
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(login.body)![1]!;
    const page = await agent.follow(action, { form: { csrf: csrfTokenOf(login), account: PERSON.account, password: PERSON.password } });
    return { config, agent, request, page };
  }

  const otpForm = (page: PageResponse) => ({
    action: /action="(\/interaction\/[^"]+\/otp)"/.exec(page.body)![1]!,
    csrf: csrfTokenOf(page),
    ticket: /name="ticket" value="([^"]+)"/.exec(page.body)![1]!,
  });

  it('asks for the code on a second page with a labelled input named otp, and signs in with a current code (amr and acr say so)', async () => {
    const { config, agent, request, page } = await passwordStep();
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<label for="otp">[^<]+<\/label>/);
    expect(page.body).toMatch(/<input id="otp" name="otp"/);
    expect(page.body).toMatch(/<button class="button button-primary" type="submit">Verify and sign in<\/button>/);
    expect(page.body).not.toContain(PERSON.password);
    const form = otpForm(page);

    const wrong = await agent.follow(form.action, { form: { csrf: form.csrf, ticket: form.ticket, otp: '000000' === (await codeNow()) ? '111111' : '000000' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('That code did not work');

    let next = await agent.follow(form.action, { form: { csrf: form.csrf, ticket: form.ticket, otp: await codeNow() } });
    if (isConsentPage(next)) {
      const uid = /action="\/interaction\/([^"/]+)\/confirm"/.exec(next.body)![1]!;
      next = await agent.follow(`/interaction/${uid}/confirm`, { form: { csrf: csrfTokenOf(next) } });
    }
    expect(next.location?.startsWith(fixture.web.redirectUri)).toBe(true);
    const tokens = await redeemCode(config, request, next.location!);
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(fixture.person.subjectId);
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(claims.acr).toBe('mfa');
    expect(oidc).toBeDefined();
  });

  it('refuses the code again within its window, takes a recovery code once, and refuses a forged ticket', async () => {
    const used = await codeNow();
    const first = await passwordStep();
    const form = otpForm(first.page);
    const reused = await first.agent.follow(form.action, { form: { csrf: form.csrf, ticket: form.ticket, otp: used } });
    expect(reused.status).toBe(401);

    const recovery = await first.agent.follow(form.action, { form: { csrf: form.csrf, ticket: form.ticket, otp: recoveryCodes[0]! } });
    expect(recovery.status === 200 ? isConsentPage(recovery) : recovery.location?.startsWith(fixture.web.redirectUri)).toBe(true);

    const second = await passwordStep();
    const again = otpForm(second.page);
    expect((await second.agent.follow(again.action, { form: { csrf: again.csrf, ticket: again.ticket, otp: recoveryCodes[0]! } })).status).toBe(401);
    const forged = `${fixture.admin.subjectId}.${Date.now() + 60_000}.${again.ticket.split('.').slice(2).join('.')}`;
    const refused = await second.agent.follow(again.action, { form: { csrf: again.csrf, ticket: forged, otp: recoveryCodes[1]! } });
    expect(refused.status).toBe(400);
    expect(isLoginPage({ ...refused, status: 200 })).toBe(true);
  });
});

describe.each(TEST_ENGINES)('OIDC login with the password alone on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  it('says so in the ID token: amr ["pwd"], acr "pwd"; discovery lists the acr values', async () => {
    const config = await discoverAs(server.issuer, fixture.web);
    expect(config.serverMetadata().acr_values_supported).toEqual(['pwd', 'mfa']);
    const agent = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, fixture.web, 'openid profile', { prompt: 'consent' });
    const { signInThroughPages } = await import('../helpers/oidc-user-agent.ts');
    const callback = await signInThroughPages(agent, request.url, PERSON);
    const claims = (await redeemCode(config, request, callback.location!)).claims()!;
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.acr).toBe('pwd');
  });
});

// A person the policy requires to use a second factor and who has none: test/oidc/enrolment-and-step-up.test.ts.

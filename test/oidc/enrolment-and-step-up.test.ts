import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';
import { csrfTokenOf, isConsentPage, isLoginPage, OidcUserAgent, signInThroughPages, type PageResponse } from '../helpers/oidc-user-agent.ts';

const NOTICE_SUBJECT = 'Your Sesame sign-in factors changed';

/** Enrolment inside the sign-in (policy, or acr_values=mfa), step-up inside a live session, and the notices they mail. */
describe.each(TEST_ENGINES)('second factors at sign-in on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startOidcTestServer(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>' });
    fixture = await setUpOidcFixture(server);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.stop();
  });

  const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(server.clock.now() / 1000) });
  const authorizationCodes = async () => (await server.db.selectFrom('oidc_payloads').select('kind').where('kind', '=', 'AuthorizationCode').execute()).length;
  const noticesTo = (address: string) => smtp.mails.filter((mail) => mail.envelopeTo.includes(address) && mail.subject === NOTICE_SUBJECT).length;

  async function throughConsent(agent: OidcUserAgent, page: PageResponse): Promise<PageResponse> {
    if (!isConsentPage(page)) return page;
    const uid = /action="\/interaction\/([^"/]+)\/confirm"/.exec(page.body)![1]!;
    return agent.follow(`/interaction/${uid}/confirm`, { form: { csrf: csrfTokenOf(page) } });
  }

  function enrolmentForm(page: PageResponse) {
    expect(page.body).toContain('<h1 id="page-title">Set up a second factor</h1>');
    return {
      action: /action="(\/interaction\/[^"]+\/enrol)"/.exec(page.body)![1]!,
      csrf: csrfTokenOf(page),
      ticket: /name="ticket" value="([^"]+)"/.exec(page.body)![1]!,
      factorId: /name="factorId" value="([^"]+)"/.exec(page.body)![1]!,
      secret: /<code class="totp-secret">([A-Z2-7]+)<\/code>/.exec(page.body)![1]!,
    };
  }

  it('enrols a person the policy requires to use a second factor before the application gets a code, and mails a notice', async () => {
    const { version } = await server.services.settings.getSettings(fixture.adminActor);
    await server.services.settings.updateSettings(fixture.adminActor, { mfaRequired: 'everyone', expectedSettingsVersion: version });
    try {
      const config = await discoverAs(server.issuer, fixture.web);
      const agent = new OidcUserAgent(server.issuer);
      const request = await authorizationRequest(config, fixture.web, 'openid profile', { prompt: 'consent' });
      const page = await signInThroughPages(agent, request.url, PERSON);
      expect(page.status).toBe(200);
      expect(page.location).toBeNull();
      expect(page.body).toContain('Your organisation requires a second factor at sign-in.');
      expect(page.body).toMatch(/<figure class="qr-code" role="img" aria-label="[^"]+"><svg aria-hidden="true" focusable="false" xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(page.body).toMatch(/<label for="code">[^<]+<\/label>/);
      const form = enrolmentForm(page);
      expect(await authorizationCodes()).toBe(0);

      const wrong = await agent.follow(form.action, { form: { csrf: form.csrf, ticket: form.ticket, factorId: form.factorId, code: (await codeFor(form.secret)) === '000000' ? '111111' : '000000' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatch(/role="alert" id="code-error"/);
      expect(enrolmentForm(wrong).secret).toBe(form.secret);
      // A ticket of this step does not open the next one.
      const skipped = await agent.follow(form.action.replace(/\/enrol$/, '/enrolled'), { form: { csrf: form.csrf, ticket: form.ticket } });
      expect(skipped.status).toBe(400);

      const codes = await agent.follow(form.action, { form: { csrf: form.csrf, ticket: form.ticket, factorId: form.factorId, code: await codeFor(form.secret) } });
      expect(codes.status).toBe(200);
      expect(codes.body).toContain('Save your recovery codes');
      expect([...codes.body.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)]).toHaveLength(10);
      expect(await authorizationCodes()).toBe(0);

      const next = await throughConsent(agent, await agent.follow(/action="(\/interaction\/[^"]+\/enrolled)"/.exec(codes.body)![1]!, { form: { csrf: csrfTokenOf(codes), ticket: /name="ticket" value="([^"]+)"/.exec(codes.body)![1]! } }));
      expect(next.location?.startsWith(fixture.web.redirectUri)).toBe(true);
      const claims = (await redeemCode(config, request, next.location!)).claims()!;
      expect(claims.sub).toBe(fixture.person.subjectId);
      expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
      expect(claims.acr).toBe('mfa');
      const { factors } = await server.services.factors.listFactors({ subjectId: fixture.person.subjectId, isAdmin: false, surface: 'console', ip: null });
      expect(factors.map((factor) => factor.type)).toEqual(['totp', 'recovery_codes']);
      await smtp.waitFor((mail) => mail.envelopeTo.includes('alice@example.edu') && mail.subject === NOTICE_SUBJECT);

      // Factor changes mail the person too: new recovery codes, removal, an administrator's reset.
      const alice: Actor = { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: server.clock.now() };
      const before = noticesTo('alice@example.edu');
      await server.services.factors.newRecoveryCodes(alice);
      await server.services.factors.removeFactor(alice, 'recovery_codes', PERSON.password);
      await server.services.factors.resetFactors(fixture.adminActor, fixture.person.subjectId);
      await smtp.waitForCount((mail) => mail.envelopeTo.includes('alice@example.edu') && mail.subject === NOTICE_SUBJECT, before + 3);
    } finally {
      const { version: now } = await server.services.settings.getSettings(fixture.adminActor);
      await server.services.settings.updateSettings(fixture.adminActor, { mfaRequired: 'none', expectedSettingsVersion: now });
    }
  });

  it('asks only for the second factor when an application sends acr_values=mfa inside a password-only session', async () => {
    const account = `stepper-${engine}`;
    const password = 'stepper-password-1';
    const person = await server.services.users.createUser(fixture.adminActor, { account, displayName: 'Step Up', email: `${account}@example.edu`, emailVerified: true, password });
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const first = await authorizationRequest(config, fixture.web, 'openid profile');
    const signedIn = await throughConsent(agent, await signInThroughPages(agent, first.url, { account, password }));
    expect((await redeemCode(config, first, signedIn.location!)).claims()!.acr).toBe('pwd');

    // No factor yet: the application's request for mfa takes the person through enrolment, with no password asked.
    const noFactor = await agent.follow((await authorizationRequest(config, fixture.web, 'openid profile', { acr_values: 'mfa' })).url);
    expect(isLoginPage(noFactor)).toBe(false);
    expect(noFactor.body).toContain('The application asked for sign-in with a second factor.');

    // With an authenticator added since, the live session is asked for its code only.
    const actor: Actor = { subjectId: person.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: server.clock.now() };
    const started = await server.services.factors.startTotp(actor, { name: 'Phone' });
    await server.services.factors.confirmTotp(actor, started.factorId, await codeFor(started.secret));
    server.clock.advance(30_000);
    const stepUp = await authorizationRequest(config, fixture.web, 'openid profile', { acr_values: 'mfa' });
    const asked = await agent.follow(stepUp.url);
    expect(asked.status).toBe(200);
    expect(isLoginPage(asked)).toBe(false);
    expect(asked.body).toMatch(/<input id="otp" name="otp"/);
    const done = await throughConsent(agent, await agent.follow(/action="(\/interaction\/[^"]+\/otp)"/.exec(asked.body)![1]!, {
      form: { csrf: csrfTokenOf(asked), ticket: /name="ticket" value="([^"]+)"/.exec(asked.body)![1]!, otp: await codeFor(started.secret) },
    }));
    expect(done.location?.startsWith(fixture.web.redirectUri)).toBe(true);
    const claims = (await redeemCode(config, stepUp, done.location!)).claims()!;
    expect(claims.sub).toBe(person.subjectId);
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(claims.acr).toBe('mfa');

    // The session is multi-factor now: asking for mfa again goes straight through; max_age=0 asks to sign in again.
    const again = await authorizationRequest(config, fixture.web, 'openid profile', { acr_values: 'mfa' });
    const straight = await throughConsent(agent, await agent.follow(again.url));
    expect(straight.location?.startsWith(fixture.web.redirectUri)).toBe(true);
    expect((await redeemCode(config, again, straight.location!)).claims()!.acr).toBe('mfa');
    server.clock.advance(2_000);
    const fresh = await agent.follow((await authorizationRequest(config, fixture.web, 'openid profile', { max_age: '0' })).url);
    expect(isLoginPage(fresh)).toBe(true);
  });
});

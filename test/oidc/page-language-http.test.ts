import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutLang } from '../../src/pages/page-language.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages, type PageResponse } from '../helpers/oidc-user-agent.ts';

/** How a page's language is picked over HTTP: the switcher's `lang` and its cookie, ui_locales, Accept-Language. */
describe('the language of pages over HTTP (sqlite)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
  });
  afterAll(async () => ctx?.close());

  const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
  const langOf = (body: string) => /<html lang="([^"]+)">/.exec(body)?.[1];

  it('remembers a switcher choice in a cookie that grants nothing, and lets it outrank Accept-Language', async () => {
    const chosen = await get('/account/forgot?lang=zh-CN', { 'accept-language': 'en' });
    expect(chosen.statusCode).toBe(200);
    expect(langOf(chosen.body)).toBe('zh-CN');
    expect(chosen.body).toContain('忘记密码？');
    expect(chosen.headers['set-cookie']).toEqual([`sesame_lang=zh-CN; Path=/; SameSite=Lax; Max-Age=${365 * 86_400}`]);
    // The switcher points at the page itself, without carrying the old choice along.
    expect(chosen.body).toContain('href="/account/forgot?lang=en"');

    const remembered = await get('/account/forgot', { 'accept-language': 'en', cookie: 'sesame_lang=zh-CN' });
    expect(langOf(remembered.body)).toBe('zh-CN');
    expect(remembered.headers['set-cookie']).toBeUndefined();

    // A value that is not a language is ignored, in the query and in the cookie.
    const bogus = await get('/account/forgot?lang=xx%22%3E', { 'accept-language': 'en', cookie: 'sesame_lang=<b>' });
    expect(langOf(bogus.body)).toBe('en');
    expect(bogus.headers['set-cookie']).toBeUndefined();
  });

  it('points the switcher at the page itself, never at another host', () => {
    expect(withoutLang('/interaction/abc?lang=zh-CN&x=1')).toBe('/interaction/abc?x=1');
    expect(withoutLang('/.//evil.example/path?lang=en')).toBe('/evil.example/path');
  });

  it('answers a dead link page in the browser\'s language', async () => {
    const dead = await get(`/account/reset/${'A'.repeat(43)}`, { 'accept-language': 'zh-CN' });
    expect(dead.statusCode).toBe(404);
    expect(langOf(dead.body)).toBe('zh-CN');
    expect(dead.body).toContain('此链接无效');
  });

  it('writes the authorization error page in the language asked for', async () => {
    const unknownClient = await get('/auth?client_id=nobody&response_type=code&scope=openid&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb', { 'accept-language': 'zh-CN,en;q=0.5' });
    expect(unknownClient.statusCode).toBe(400);
    expect(langOf(unknownClient.body)).toBe('zh-CN');
    expect(unknownClient.body).toContain('Sesame 不认识此应用');

    const english = await get('/auth?client_id=nobody&response_type=code&scope=openid&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb', { 'accept-language': 'fr, *' });
    expect(langOf(english.body)).toBe('en');

  });
});

describe('a person\'s saved language on the sign-in pages (sqlite)', () => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer('sqlite');
    fixture = await setUpOidcFixture(server);
  });
  afterAll(async () => server?.close());

  it('asks for consent in the saved language once Sesame knows who signs in; fetch\'s `Accept-Language: *` alone gives English before', async () => {
    await server.services.accountLocale.setLocale({ subjectId: fixture.person.subjectId, isAdmin: false, surface: 'console', ip: null }, 'zh-CN');
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    let consent: PageResponse | undefined;
    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    const login = await agent.follow(request.url);
    expect(login.body).toContain('<html lang="en">');
    await signInThroughPages(agent, request.url, PERSON, { consent: 'deny', onConsentPage: (page) => (consent = page) });
    expect(consent?.body).toContain('<html lang="zh-CN">');
    expect(consent?.body).toContain('是否允许访问？');
  });
});

import { describe, expect, it } from 'vitest';
import type { DeadLinkReason } from '../../src/domain/account-links.ts';
import { CATALOGUES } from '../../src/i18n/catalogues.ts';
import { LOCALES, type Locale } from '../../src/i18n/locales.ts';
import { renderDeadLinkPage, renderEmailVerifiedPage, renderForgotPage, renderPasswordSetPage, renderSetPasswordPage, renderVerifyEmailPage } from '../../src/account/account-pages.ts';
import { renderConsentPage } from '../../src/oidc/pages/consent-page.ts';
import { renderEnrolmentPage, renderRecoveryCodesPage } from '../../src/oidc/pages/enrolment-page.ts';
import { errorPageText, explainProtocolError, renderErrorPage } from '../../src/pages/error-page.ts';
import { text, type PageLanguage } from '../../src/pages/layout.ts';
import { renderLoginPage } from '../../src/oidc/pages/login-page.ts';
import { renderLoggedOutPage, renderLogoutPage } from '../../src/oidc/pages/logout-page.ts';
import { renderOneTimeCodePage } from '../../src/oidc/pages/one-time-code-page.ts';
import { signInRefusalText } from '../../src/oidc/sign-in-refusal.ts';
import { UpstreamSignInStopped, type UpstreamStopReason } from '../../src/services/upstream/oidc-upstream-sign-in.ts';
import { FEDERATED_REFUSAL_REASONS, FederatedSignInRefused } from '../../src/services/upstream/federated-person.ts';

const DEAD_LINK_REASONS: DeadLinkReason[] = ['unknown', 'used', 'expired', 'superseded', 'password_changed'];
const UPSTREAM_STOP_REASONS: UpstreamStopReason[] = ['provider_unavailable', 'provider_unreachable', 'provider_gone', 'upstream_error', 'state_mismatch', 'answer_unverified'];
/** The names a refusal mentions, as the services and upstream sign-in fill them in. */
const REFUSAL_DETAILS = { provider: 'Campus ID', account: 'ivy', email: 'ivy@example.test', domains: 'example.test', error: 'access_denied' };

/** The refusals of upstream and directory sign-in, each as the page that shows it. */
function refusalPages(language: PageLanguage): Record<string, string> {
  const refusals: (UpstreamSignInStopped | FederatedSignInRefused)[] = [
    ...UPSTREAM_STOP_REASONS.map((reason) => new UpstreamSignInStopped(reason, 'The service refused this sign-in.', REFUSAL_DETAILS)),
    ...FEDERATED_REFUSAL_REASONS.map((reason) => new FederatedSignInRefused(reason, 'The service refused this sign-in.', REFUSAL_DETAILS)),
    new FederatedSignInRefused('email_domain_not_allowed', 'The service refused this sign-in.', { provider: 'Campus ID', domains: 'example.test' }),
  ];
  const pages: Record<string, string> = {};
  for (const [index, refusal] of refusals.entries()) {
    const message = signInRefusalText(language, refusal);
    pages[`refused-${index}-${refusal.reason}`] = renderErrorPage({ title: text(language, 'upstream.refusedTitle'), message, language });
    if (refusal instanceof FederatedSignInRefused) pages[`loginRefused-${index}-${refusal.reason}`] = renderLoginPage({ uid: 'uid-1', csrfToken: 'csrf', clientName: 'Wiki', refusal: message, language });
  }
  pages.unknownState = renderErrorPage(errorPageText(language, 'upstream.unknownState', 'upstream.refusedTitle'));
  return pages;
}

/** Every server-rendered page, in every state that changes its text. */
function everyPage(language: PageLanguage): Record<string, string> {
  const base = { uid: 'uid-1', csrfToken: 'csrf', clientName: 'Wiki', language };
  const consent = { ...base, userName: 'Alice', account: 'alice', scopes: ['openid', 'profile', 'email', 'student', 'offline_access'] as const };
  const pages: Record<string, string> = {
    login: renderLoginPage(base),
    loginFailed: renderLoginPage({ ...base, account: 'alice', failed: true }),
    loginLimited: renderLoginPage({ ...base, retryAfterSeconds: 30 }),
    loginLimitedLong: renderLoginPage({ ...base, retryAfterSeconds: 900 }),
    otp: renderOneTimeCodePage({ ...base, ticket: 't', failed: true }),
    otpLimited: renderOneTimeCodePage({ ...base, ticket: 't', retryAfterSeconds: 60 }),
    consent: renderConsentPage({ ...consent, scopes: [...consent.scopes] }),
    assistantConsent: renderConsentPage({ ...consent, scopes: ['openid'], assistant: { scopes: ['sesame:read', 'sesame:write', 'sesame:admin'], duration: { offline: true, days: 30 } } }),
    assistantReadOnly: renderConsentPage({ ...consent, scopes: ['openid'], assistant: { scopes: ['sesame:read'], duration: { offline: false, minutes: 60 } } }),
    logout: renderLogoutPage({ action: '/session/end/confirm', xsrf: 'x', clientName: 'Wiki', language }),
    logoutNoClient: renderLogoutPage({ action: '/session/end/confirm', xsrf: 'x', language }),
    loggedOut: renderLoggedOutPage({ clientName: 'Wiki', language }),
    csrfError: renderErrorPage(errorPageText(language, 'error.csrf')),
    wrongStep: renderErrorPage(errorPageText(language, 'error.wrongStep')),
    enrolFirst: renderErrorPage(errorPageText(language, 'login.enrolFirst.message', 'login.enrolFirst.title')),
    forgot: renderForgotPage({ mailEnabled: true, language }),
    forgotNoMail: renderForgotPage({ mailEnabled: false, language }),
    forgotSent: renderForgotPage({ mailEnabled: true, sent: true, language }),
    forgotMissing: renderForgotPage({ mailEnabled: true, missingAccount: true, language }),
    forgotLimited: renderForgotPage({ mailEnabled: true, retryAfterSeconds: 600, language }),
    invitation: renderSetPasswordPage({ purpose: 'invitation', action: '/a', account: 'ivy', displayName: 'Ivy', problem: 'too_short', language }),
    reset: renderSetPasswordPage({ purpose: 'reset', action: '/a', account: 'ivy', displayName: 'Ivy', problem: 'too_long', language }),
    invitationDone: renderPasswordSetPage('invitation', 'ivy', language),
    resetDone: renderPasswordSetPage('reset', 'ivy', language),
    verify: renderVerifyEmailPage({ action: '/a', account: 'ivy', email: 'ivy@example.test', language }),
    verified: renderEmailVerifiedPage('ivy@example.test', language),
    enrolment: renderEnrolmentPage({ ...base, ticket: 't', factorId: 'f', secret: 'JBSWY3DPEHPK3PXP', qrCodeSvg: '<svg viewBox="0 0 1 1"></svg>', required: true }),
    enrolmentRequested: renderEnrolmentPage({ ...base, ticket: 't', factorId: 'f', secret: 'JBSWY3DPEHPK3PXP', qrCodeSvg: '<svg viewBox="0 0 1 1"></svg>', required: false, failed: 'code' }),
    enrolmentPasskeyFailed: renderEnrolmentPage({ ...base, ticket: 't', factorId: 'f', secret: 'JBSWY3DPEHPK3PXP', qrCodeSvg: '<svg viewBox="0 0 1 1"></svg>', required: true, failed: 'passkey' }),
    recoveryCodes: renderRecoveryCodesPage({ ...base, ticket: 't', recoveryCodes: ['abcd-efgh', 'ijkl-mnop'] }),
    loginWithProviders: renderLoginPage({ ...base, upstreamProviders: [{ name: 'campus', displayName: 'Campus ID' }] }),
    loginDirectoryDown: renderLoginPage({ ...base, directoryRetryAfterSeconds: 10 }),
    ...refusalPages(language),
  };
  for (const error of ['invalid_request', 'invalid_client', 'session_not_found', 'server_error', 'temporarily_unavailable']) {
    pages[`error-${error}`] = renderErrorPage(explainProtocolError(error, 'details', language));
  }
  pages['error-redirect'] = renderErrorPage(explainProtocolError('invalid_redirect_uri', 'redirect_uri did not match', language));
  pages['error-logout-redirect'] = renderErrorPage(explainProtocolError('invalid_request', 'post_logout_redirect_uri not registered', language));
  for (const kind of ['invitation', 'reset', 'verification'] as const) {
    for (const reason of DEAD_LINK_REASONS) pages[`dead-${kind}-${reason}`] = renderDeadLinkPage(reason, kind, language);
  }
  return pages;
}

const KEYS = Object.keys(CATALOGUES.en);
/** The page's words outside the language switcher (which names each language in itself). */
const visibleText = (page: string) => page.replace(/<nav class="language-switcher"[\s\S]*?<\/nav>/, '').replace(/<[^>]+>/g, ' ');

describe('server-rendered pages in every language', () => {
  it.each(LOCALES)('renders every page in %s: <html lang>, no raw key, no unfilled placeholder, a language switcher', (locale: Locale) => {
    const pages = everyPage({ locale, selfPath: '/interaction/uid-1' });
    for (const [name, page] of Object.entries(pages)) {
      expect(page, name).toContain(`<html lang="${locale}">`);
      const words = visibleText(page);
      expect(KEYS.filter((key) => words.includes(key)), name).toEqual([]);
      expect(words, name).not.toMatch(/\{\w+\}/);
      expect(page, name).toContain('href="/interaction/uid-1?lang=zh-CN"');
      expect(page, name).toMatch(/<nav class="language-switcher" aria-label="[^"]+">/);
      const title = /<h1 id="page-title">([^<]+)<\/h1>/.exec(page)?.[1] ?? '';
      if (locale === 'zh-CN') expect(title, name).toMatch(/[\u4e00-\u9fff]/);
      else expect(words, name).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('writes no English sentence on a Chinese page (names, codes and the developer details aside)', () => {
    const english = new Set(Object.values(CATALOGUES.en));
    for (const [name, page] of Object.entries(everyPage({ locale: 'zh-CN' }))) {
      for (const sentence of english) expect(page.includes(sentence) && sentence.length > 12 ? `${name}: ${sentence}` : '').toBe('');
      // Nor one written outside the catalogues: three English words in a row (the developer details stay as the protocol sent them).
      expect(visibleText(page.replace(/<details>[\s\S]*?<\/details>/, '')).match(/\b[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}\b/g), name).toBeNull();
    }
  });
});

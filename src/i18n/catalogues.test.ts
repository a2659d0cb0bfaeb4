import { describe, expect, it } from 'vitest';
import { CATALOGUES, interpolate, LOCALE_NAMES, t } from './catalogues.ts';
import { formatDateTime, formatNumber } from './format.ts';
import { localeFromAcceptLanguage, LOCALES, matchLocale, negotiateLocale } from './locales.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const english = CATALOGUES.en;

describe('message catalogues', () => {
  it('has every key of the English catalogue in every language, and no other key', () => {
    for (const locale of LOCALES) {
      expect(Object.keys(CATALOGUES[locale]).sort(), locale).toEqual(Object.keys(english).sort());
      expect(LOCALE_NAMES[locale]).toBeTruthy();
    }
  });

  it('gives every text in every language, with the same placeholders as English', () => {
    for (const locale of LOCALES) {
      for (const [key, value] of Object.entries(CATALOGUES[locale])) {
        expect(value.trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(value), `${locale} ${key}`).toEqual(placeholders(english[key as keyof typeof english]));
      }
    }
  });

  it('writes the Chinese catalogue in Chinese, not copied English', () => {
    const untranslated = Object.entries(CATALOGUES['zh-CN']).filter(([, value]) => !/[\u4e00-\u9fff]/.test(value));
    expect(untranslated).toEqual([]);
  });

  it('fills placeholders and leaves an unknown one visible', () => {
    expect(t('en', 'login.subtitle', { client: 'Wiki' })).toBe('to continue to Wiki');
    expect(t('zh-CN', 'login.subtitle', { client: 'Wiki' })).toBe('登录后继续使用 Wiki');
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });

  it('formats dates and numbers with Intl in the language', () => {
    const moment = Date.UTC(2026, 10, 26, 14, 5);
    expect(formatDateTime('en', moment)).toMatch(/Nov 26, 2026/);
    expect(formatDateTime('zh-CN', moment)).toMatch(/2026年11月26日/);
    expect(formatNumber('en', 12345)).toBe('12,345');
    expect(formatNumber('zh-CN', 12345)).toBe('12,345');
  });
});

describe('choosing the language', () => {
  it('maps zh, zh-CN, zh-Hans and zh-Hans-CN to zh-CN; Traditional Chinese and other languages to nothing', () => {
    for (const tag of ['zh', 'zh-CN', 'zh-cn', 'zh-Hans', 'zh-Hans-CN', 'zh_CN', 'zh-SG']) expect(matchLocale(tag), tag).toBe('zh-CN');
    for (const tag of ['en', 'en-US', 'en-GB']) expect(matchLocale(tag), tag).toBe('en');
    for (const tag of ['zh-TW', 'zh-Hant', 'zh-HK', 'fr', 'de-DE', '*', '']) expect(matchLocale(tag), tag).toBeUndefined();
  });

  it('reads Accept-Language by weight, in order for equal weights, skipping * and q=0', () => {
    expect(localeFromAcceptLanguage('fr-FR, zh-CN;q=0.8, en;q=0.5')).toBe('zh-CN');
    expect(localeFromAcceptLanguage('en;q=0.4, zh;q=0.9')).toBe('zh-CN');
    expect(localeFromAcceptLanguage('zh-CN;q=0, en')).toBe('en');
    expect(localeFromAcceptLanguage('zh-Hans, en')).toBe('zh-CN');
    expect(localeFromAcceptLanguage('*')).toBeUndefined();
    expect(localeFromAcceptLanguage('fr')).toBeUndefined();
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined();
  });

  it('prefers ui_locales, then the saved locale, then Accept-Language, else English', () => {
    expect(negotiateLocale({ uiLocales: 'fr zh-CN', saved: 'en', acceptLanguage: 'en' })).toBe('zh-CN');
    expect(negotiateLocale({ uiLocales: 'fr', saved: 'zh-CN', acceptLanguage: 'en' })).toBe('zh-CN');
    expect(negotiateLocale({ saved: 'en', acceptLanguage: 'zh-CN' })).toBe('en');
    expect(negotiateLocale({ saved: null, acceptLanguage: 'zh-CN,en;q=0.5' })).toBe('zh-CN');
    expect(negotiateLocale({ saved: 'klingon', acceptLanguage: 'fr' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: '*' })).toBe('en');
    expect(negotiateLocale({})).toBe('en');
  });

  it('puts the browser\'s own choice first and a mail\'s queued language after the saved one: one order for pages, console and mail', () => {
    expect(negotiateLocale({ chosen: 'en', uiLocales: 'zh-CN', saved: 'zh-CN', acceptLanguage: 'zh-CN' })).toBe('en');
    expect(negotiateLocale({ chosen: 'tlh', uiLocales: 'zh-CN' })).toBe('zh-CN');
    expect(negotiateLocale({ saved: 'en', queuedIn: 'zh-CN' })).toBe('en');
    expect(negotiateLocale({ saved: null, queuedIn: 'zh-CN', acceptLanguage: 'en' })).toBe('zh-CN');
    expect(negotiateLocale({ queuedIn: 'fr' })).toBe('en');
  });
});

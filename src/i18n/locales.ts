/**
 * The languages Sesame speaks and how one is chosen (DESIGN section 12): the request's `ui_locales`,
 * then the person's saved preference, then `Accept-Language`; nothing matching gives English.
 * Pure: the console imports this file too.
 */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/**
 * The supported language one BCP 47 tag asks for, or undefined. `zh`, `zh-CN`, `zh-Hans`, `zh-Hans-CN`
 * and `zh-SG` are Simplified Chinese; `zh-TW`, `zh-HK` and `zh-Hant` (Traditional) are not offered.
 */
export function matchLocale(tag: string): Locale | undefined {
  const parts = tag.trim().toLowerCase().replace(/_/g, '-').split('-');
  const [language, ...rest] = parts;
  if (language === 'en') return 'en';
  if (language !== 'zh') return undefined;
  if (rest.includes('hant') || rest.includes('tw') || rest.includes('hk') || rest.includes('mo')) return undefined;
  return 'zh-CN';
}

/** `ui_locales` (space-separated, in order of preference): the first supported one. */
export function localeFromUiLocales(uiLocales: unknown): Locale | undefined {
  if (typeof uiLocales !== 'string') return undefined;
  for (const tag of uiLocales.split(/\s+/)) {
    const found = tag ? matchLocale(tag) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** `Accept-Language` with q-values: the supported language of the highest weight (`*` matches nothing). */
export function localeFromAcceptLanguage(header: string | string[] | undefined): Locale | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  const ranges = value.split(',').flatMap((item, index) => {
    const [tag = '', ...params] = item.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    return tag && Number.isFinite(weight) && weight > 0 ? [{ tag: tag.trim(), weight, index }] : [];
  });
  ranges.sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    const found = range.tag === '*' ? undefined : matchLocale(range.tag);
    if (found) return found;
  }
  return undefined;
}

export interface LocaleSources {
  /** This browser's own choice, made with a page's or the console's language switcher (`lang`, the `sesame_lang` cookie). */
  chosen?: unknown;
  /** The request's OIDC `ui_locales`. */
  uiLocales?: unknown;
  /** The person's saved preference, when the person is known. */
  saved?: string | null | undefined;
  /** A mail's: the language it was queued in (an invitation's, its inviter's). */
  queuedIn?: unknown;
  acceptLanguage?: string | string[] | undefined;
}

/**
 * The one language choice of pages, the console and mail, in one order: the browser's own choice, the
 * application's `ui_locales`, the person's saved language, the language a mail was queued in, the browser's
 * languages, English. Each caller passes the sources it has.
 */
export function negotiateLocale(sources: LocaleSources): Locale {
  return (
    (isLocale(sources.chosen) ? sources.chosen : undefined) ??
    localeFromUiLocales(sources.uiLocales) ??
    (isLocale(sources.saved) ? sources.saved : undefined) ??
    (isLocale(sources.queuedIn) ? sources.queuedIn : undefined) ??
    localeFromAcceptLanguage(sources.acceptLanguage) ??
    DEFAULT_LOCALE
  );
}

/**
 * The browser's own language choice, made with a page's language switcher or the console's: a cookie
 * that holds only a language name (it grants nothing). Readable by script, so the console follows it.
 */
export const LANGUAGE_COOKIE = 'sesame_lang';

export function languageCookieOf(cookieHeader: string | undefined): Locale | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE) {
      const locale = value.join('=');
      return isLocale(locale) ? locale : undefined;
    }
  }
  return undefined;
}

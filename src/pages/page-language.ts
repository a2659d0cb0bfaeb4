import type { ServerResponse } from 'node:http';
import { isLocale, LANGUAGE_COOKIE, languageCookieOf, negotiateLocale, type Locale } from '../i18n/locales.ts';
import type { PageLanguage } from './layout.ts';

/**
 * The language of a server-rendered page. The person's own choice in this browser (the switcher's
 * `lang` query, remembered in the `sesame_lang` cookie) comes first, then the request's `ui_locales`,
 * then the person's saved locale when Sesame knows who they are, then `Accept-Language`; else English.
 * The cookie holds only a language name: it grants nothing, so a link that sets it needs no CSRF token.
 */
const ONE_YEAR_SECONDS = 365 * 86_400;

export interface PageRequest {
  /** Path and query as received (`/interaction/abc?lang=zh-CN`). */
  url: string;
  method: string;
  headers: { cookie?: string | undefined; 'accept-language'?: string | string[] | undefined };
}

function langQuery(url: string): Locale | undefined {
  const value = new URL(url, 'http://sesame.invalid').searchParams.get('lang');
  return isLocale(value) ? value : undefined;
}

/** The request's address without `lang`, for the switcher to add its own. */
export function withoutLang(url: string): string {
  const parsed = new URL(url, 'http://sesame.invalid');
  parsed.searchParams.delete('lang');
  // One leading slash: `//host` in a link would leave the site.
  return `${parsed.pathname.replace(/^\/+/, '/')}${parsed.search}`;
}

export interface PageLanguageInput {
  uiLocales?: unknown;
  saved?: string | null | undefined;
  /** Where the switcher points: the request's own address for a GET, or the GET page a POST answered for. */
  selfPath?: string | undefined;
}

export function pageLanguage(request: PageRequest, input: PageLanguageInput = {}): PageLanguage {
  const chosen = langQuery(request.url) ?? languageCookieOf(request.headers.cookie);
  const locale = negotiateLocale({ chosen, uiLocales: input.uiLocales, saved: input.saved, acceptLanguage: request.headers['accept-language'] });
  const selfPath = input.selfPath ?? (request.method === 'GET' ? withoutLang(request.url) : undefined);
  return { locale, selfPath };
}

/** When the request chose a language with `lang`, remembers it in this browser (added beside any cookie already set). */
export function rememberLanguageChoice(request: PageRequest, response: ServerResponse, secure: boolean): void {
  const chosen = langQuery(request.url);
  if (!chosen) return;
  const cookie = [`${LANGUAGE_COOKIE}=${chosen}`, 'Path=/', 'SameSite=Lax', ...(secure ? ['Secure'] : []), `Max-Age=${ONE_YEAR_SECONDS}`].join('; ');
  const existing = response.getHeader('set-cookie');
  response.setHeader('set-cookie', [...(Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)]), cookie]);
}

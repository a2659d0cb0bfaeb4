import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CATALOGUES, interpolate, type MessageKey, type MessageParams } from '../../src/i18n/catalogues.ts';
import { isLocale, LANGUAGE_COOKIE, languageCookieOf, localeFromAcceptLanguage, DEFAULT_LOCALE, type Locale } from '../../src/i18n/locales.ts';
import { api, unwrap } from './api/client.ts';

/**
 * The console's language, from the same catalogues as the server's pages (src/i18n). The signed-in
 * person's saved language wins (GET /auth/context answers it); otherwise the browser's choice on a
 * page's switcher (the `sesame_lang` cookie), then the browser's languages, then English.
 * Components call t('console.…') while rendering; the app re-renders from the top when it changes.
 */
let locale: Locale = browserLocale();
const listeners = new Set<() => void>();

function browserLocale(): Locale {
  return languageCookieOf(document.cookie) ?? localeFromAcceptLanguage(navigator.languages.join(',')) ?? DEFAULT_LOCALE;
}

export function currentLocale(): Locale {
  return locale;
}

/** The text of `key` in the console's language, placeholders filled (Preact escapes it). */
export function t(key: MessageKey, params?: MessageParams): string {
  return interpolate(CATALOGUES[locale][key], params);
}

/** The text of a key built at run time (an audit action's name...), or undefined when the catalogue has none. */
export function tIfKnown(key: string, params?: MessageParams): string | undefined {
  const catalogue = CATALOGUES[locale] as Record<string, string>;
  return Object.hasOwn(catalogue, key) ? interpolate(catalogue[key]!, params) : undefined;
}

/** The text of `key` with elements in its placeholders (`{time}` -> <Time>), as children for JSX. */
export function tWith(key: MessageKey, values: Record<string, ComponentChildren>): ComponentChildren[] {
  return CATALOGUES[locale][key].split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name !== undefined && name in values ? values[name] : part;
  });
}

function apply(next: Locale): void {
  locale = next;
  document.documentElement.lang = next;
  listeners.forEach((listener) => listener());
}

/** After the session is known: the saved language (null: the browser's). */
export function followSavedLocale(saved: string | null | undefined): void {
  const next = isLocale(saved) ? saved : browserLocale();
  if (next !== locale || document.documentElement.lang !== next) apply(next);
}

/** The person picked a language: shown at once, remembered in this browser, and saved on their account when signed in. */
export async function chooseLocale(next: Locale, signedIn: boolean): Promise<void> {
  apply(next);
  document.cookie = `${LANGUAGE_COOKIE}=${next}; Path=/; Max-Age=${365 * 86_400}; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  if (signedIn) await unwrap(api.PUT('/account/locale', { body: { locale: next } }));
}

/** Re-renders the caller when the language changes; returns it. */
export function useLocale(): Locale {
  const [snapshot, setSnapshot] = useState(locale);
  useEffect(() => {
    const listener = () => setSnapshot(locale);
    listeners.add(listener);
    setSnapshot(locale);
    return () => void listeners.delete(listener);
  }, []);
  return snapshot;
}

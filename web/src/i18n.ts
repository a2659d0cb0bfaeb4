import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CATALOGUES, interpolate, type MessageKey, type MessageParams } from '../../src/i18n/catalogues.ts';
import { LANGUAGE_COOKIE, languageCookieOf, negotiateLocale, type Locale } from '../../src/i18n/locales.ts';
import { api, unwrap } from './api/client.ts';

/**
 * The console's language, from the same catalogues as the server's pages (src/i18n), chosen in the same
 * order: this browser's choice on a switcher (the `sesame_lang` cookie), the signed-in person's saved
 * language (GET /auth/context answers it), the browser's languages, English.
 * Components call t('console.…') while rendering; the app re-renders from the top when it changes.
 */
let locale: Locale = localeFor();
const listeners = new Set<() => void>();

/** The one language choice the pages and mail make too (src/i18n/locales.ts), with what the console knows. */
function localeFor(saved?: string | null): Locale {
  return negotiateLocale({ chosen: languageCookieOf(document.cookie), saved, acceptLanguage: navigator.languages.join(',') });
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
  const next = localeFor(saved);
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

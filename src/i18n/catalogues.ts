import type { Locale } from './locales.ts';
import { en, type MessageKey, type Messages } from './messages/en.ts';
import { zhCN } from './messages/zh-CN.ts';

export type { MessageKey, Messages } from './messages/en.ts';

/** Every language's catalogue, in one place. Adding a language: a file in messages/ and a line here and in LOCALES. */
export const CATALOGUES: { readonly [locale in Locale]: Messages } = { en, 'zh-CN': zhCN };

/** The names each language calls itself by, for language switchers. */
export const LOCALE_NAMES: { readonly [locale in Locale]: string } = { en: 'English', 'zh-CN': '简体中文' };

export type MessageParams = Record<string, string | number>;

/** Fills `{name}` placeholders; a placeholder without a value stays as written, so a mistake shows. */
export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The text of `key` in `locale`, with its placeholders filled. Not escaped: the page or mail renderer escapes. */
export function t(locale: Locale, key: MessageKey, params?: MessageParams): string {
  return interpolate(CATALOGUES[locale][key] ?? CATALOGUES.en[key], params);
}

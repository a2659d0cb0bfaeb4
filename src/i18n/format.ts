import type { Locale } from './locales.ts';

/** A moment as the language writes it (`26 Nov 2026, 14:05` / `2026年11月26日 14:05`), in UTC unless a zone is given. */
export function formatDateTime(locale: Locale, value: Date | number | string, options: { timeZone?: string } = {}): string {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: options.timeZone ?? 'UTC' }).format(date);
}

export function formatNumber(locale: Locale, value: number): string {
  return new Intl.NumberFormat(locale).format(value);
}

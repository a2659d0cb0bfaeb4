import type { Locale } from '../../../src/i18n/locales.ts';
import { currentLocale } from '../i18n.ts';

/** Intl formatters in the console's language (made once per language), in the browser's time zone. */
const formatters = new Map<Locale, { dateTime: Intl.DateTimeFormat; preciseDateTime: Intl.DateTimeFormat; fullDateTime: Intl.DateTimeFormat }>();
function formattersFor(locale: Locale) {
  let found = formatters.get(locale);
  if (!found) {
    found = {
      dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
      preciseDateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }),
      fullDateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'long' }),
    };
    formatters.set(locale, found);
  }
  return found;
}

/** A point in time, readable, with the exact moment on hover and in the markup. */
export function Time({ value, empty = '—', precise = false }: { value: string | null | undefined; empty?: string; precise?: boolean }) {
  if (!value) return <span class="muted">{empty}</span>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  const { dateTime, preciseDateTime, fullDateTime } = formattersFor(currentLocale());
  return (
    <time dateTime={value} title={fullDateTime.format(date)}>
      {(precise ? preciseDateTime : dateTime).format(date)}
    </time>
  );
}

export function formatDuration(seconds: number): string {
  if (seconds === 0) return 'no grace period';
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of units) {
    if (seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const preciseDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const fullDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });

/** A point in time, readable, with the exact moment on hover and in the markup. */
export function Time({ value, empty = '—', precise = false }: { value: string | null | undefined; empty?: string; precise?: boolean }) {
  if (!value) return <span class="muted">{empty}</span>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
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

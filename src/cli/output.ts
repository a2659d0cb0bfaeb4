import type { CliIo } from './command.ts';
import { UsageError } from './usage-error.ts';

export type RecordFormat = 'json' | 'table';
export const FORMAT_OPTION = { format: { type: 'string', default: 'json' } } as const;

export function recordFormat(value: string | undefined, usage: string): RecordFormat {
  if (value === 'json' || value === 'table') return value;
  throw new UsageError(`--format must be json or table (got "${value}")`, usage);
}

export const isoTime = (epochMs: number | null): string | null => (epochMs === null ? null : new Date(epochMs).toISOString());

export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}

/** One JSON object per line (for scripts), or an aligned table (for people). */
export function printRecords(io: CliIo, records: readonly Record<string, unknown>[], format: RecordFormat): void {
  if (format === 'json') {
    for (const record of records) printJson(io, record);
    return;
  }
  const columns = Object.keys(records[0] ?? {});
  if (columns.length === 0) return;
  const cell = (value: unknown) => (value === null || value === undefined ? '-' : String(value));
  const rows = [columns, ...records.map((record) => columns.map((column) => cell(record[column])))];
  const widths = columns.map((_, index) => Math.max(...rows.map((row) => row[index]!.length)));
  for (const row of rows) io.stdout.write(`${row.map((value, index) => value.padEnd(widths[index]!)).join('  ').trimEnd()}\n`);
}

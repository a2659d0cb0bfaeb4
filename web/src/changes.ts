import type { MessageKey } from '../../src/i18n/catalogues.ts';
import { t } from './i18n.ts';

export interface FieldSpec<T> {
  key: keyof T & string;
  /** The field's name, as a catalogue key: shown in the console's language. */
  label: MessageKey;
  format?: (value: unknown) => string;
}

export interface Change {
  label: string;
  before: string;
  after: string;
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The fields that differ between two versions of a resource, formatted for people. */
export function describeChanges<T>(before: T, after: T, fields: FieldSpec<T>[]): Change[] {
  const changes: Change[] = [];
  for (const field of fields) {
    const format = field.format ?? formatValue;
    const was = format(before[field.key]);
    const now = format(after[field.key]);
    if (was !== now) changes.push({ label: t(field.label), before: was, after: now });
  }
  return changes;
}

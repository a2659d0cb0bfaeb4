export interface MergeResult<T> {
  /** For each field: theirs where only they changed it, mine where I changed it. */
  merged: T;
  /** The fields both changed, to different values; `merged` holds mine there, so the person must be shown them. */
  conflicts: (keyof T & string)[];
}

/** Structural equality of JSON-like values (primitives, arrays, plain objects). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  return aKeys.length === bKeys.length && aKeys.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * Field-by-field three-way merge of an edit (`mine`) made from `base` onto a newer version
 * (`theirs`). A field I left alone takes theirs, so a change someone else made is never reverted;
 * a field only I changed keeps mine. `comparable` maps a record to the values that count (e.g. URI
 * lines trimmed), so a change that means nothing is not taken for an edit.
 */
export function threeWayMerge<T extends object>(base: T, mine: T, theirs: T, comparable: (record: T) => Record<keyof T, unknown> = (record) => record): MergeResult<T> {
  const [b, m, t] = [comparable(base), comparable(mine), comparable(theirs)];
  const merged = { ...mine };
  const conflicts: (keyof T & string)[] = [];
  for (const key of Object.keys(mine) as (keyof T & string)[]) {
    if (sameValue(m[key], b[key])) merged[key] = theirs[key];
    else if (!sameValue(t[key], b[key]) && !sameValue(t[key], m[key])) conflicts.push(key);
  }
  return { merged, conflicts };
}

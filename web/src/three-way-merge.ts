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
 * A list both sides changed, merged as each side's edits: the latest list (`theirs`, in its order) without what
 * I removed from `base`, then what I added, appended in my order. Nobody's addition is lost and nothing either
 * side removed comes back.
 */
export function mergeList<V>(base: readonly V[], mine: readonly V[], theirs: readonly V[]): V[] {
  const within = (list: readonly V[], item: V) => list.some((other) => sameValue(other, item));
  const removedByMe = base.filter((item) => !within(mine, item));
  const merged = theirs.filter((item) => !within(removedByMe, item));
  for (const item of mine) if (!within(base, item) && !within(merged, item)) merged.push(item);
  return merged;
}

/** For each list field: turns its merged comparable items back into the record's own form (e.g. URI lines). */
export type ListFields<T> = { [K in keyof T]?: (items: unknown[]) => T[K] };

/**
 * Field-by-field three-way merge of an edit (`mine`) made from `base` onto a newer version
 * (`theirs`). A field I left alone takes theirs, so a change someone else made is never reverted;
 * a field only I changed keeps mine. `comparable` maps a record to the values that count (e.g. URI
 * lines trimmed), so a change that means nothing is not taken for an edit. A field named in `lists` (whose
 * comparable values are arrays) that both changed is no conflict: the two edits are combined by `mergeList`.
 */
export function threeWayMerge<T extends object>(
  base: T,
  mine: T,
  theirs: T,
  comparable: (record: T) => Record<keyof T, unknown> = (record) => record,
  lists: ListFields<T> = {},
): MergeResult<T> {
  const [b, m, t] = [comparable(base), comparable(mine), comparable(theirs)];
  const merged = { ...mine };
  const conflicts: (keyof T & string)[] = [];
  for (const key of Object.keys(mine) as (keyof T & string)[]) {
    if (sameValue(m[key], b[key])) merged[key] = theirs[key];
    else if (!sameValue(t[key], b[key]) && !sameValue(t[key], m[key])) {
      const fromItems = lists[key];
      const [baseItems, myItems, theirItems] = [b[key], m[key], t[key]];
      if (fromItems && Array.isArray(baseItems) && Array.isArray(myItems) && Array.isArray(theirItems)) merged[key] = fromItems(mergeList(baseItems, myItems, theirItems));
      else conflicts.push(key);
    }
  }
  return { merged, conflicts };
}

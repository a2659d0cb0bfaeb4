/** The before/after of only the fields that changed, for an audit entry. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: T,
): { before: Record<string, unknown>; after: Record<string, unknown>; changed: boolean } {
  const diffBefore: Record<string, unknown> = {};
  const diffAfter: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      diffBefore[key] = before[key];
      diffAfter[key] = after[key];
    }
  }
  return { before: diffBefore, after: diffAfter, changed: Object.keys(diffAfter).length > 0 };
}

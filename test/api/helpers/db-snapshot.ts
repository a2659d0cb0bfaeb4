import type { Db } from '../../../src/storage/database.ts';

const TABLES = ['users', 'projects', 'project_members', 'clients', 'client_revisions', 'client_secrets', 'audit_log', 'sessions'] as const;

/**
 * Every row a management request could change, in a stable order. Sessions leave out `last_seen_at`,
 * which reading with a token may touch; everything else must be identical after a refused request.
 */
export async function snapshotDatabase(db: Db): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    snapshot[table] = rows
      .map((row) => {
        const { last_seen_at: _touchedByReads, ...kept } = row;
        return JSON.stringify(kept, Object.keys(kept).sort());
      })
      .sort();
  }
  return snapshot;
}

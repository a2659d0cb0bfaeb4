import { sql } from 'kysely';
import type { Db, Engine } from '../../src/storage/database.ts';

export type DatabaseSnapshot = Record<string, string[]>;

const tableLists = new WeakMap<Db, Promise<string[]>>();
const tablesOf = (db: Db) => {
  let tables = tableLists.get(db);
  if (!tables) {
    tables = db.introspection.getTables({ withInternalKyselyTables: true }).then((list) => list.map((table) => table.name).sort());
    tableLists.set(db, tables);
  }
  return tables;
};

/**
 * Every row of every table the database holds (introspected, so a table added later is covered
 * too), rows sorted: two snapshots are equal exactly when the stored data is. PostgreSQL gives each
 * row in its own text form in one round trip; SQLite, in-process, as JSON per table. Tests run on
 * a manual clock, so even a session's last-seen time stays put.
 */
export async function snapshotEveryTable(db: Db, engine: Engine): Promise<DatabaseSnapshot> {
  const tables = await tablesOf(db);
  if (engine === 'postgres') {
    const columns = tables.map((table) => sql`(select coalesce(array_agg(t::text order by t::text), '{}') from ${sql.table(table)} t) as ${sql.ref(table)}`);
    const { rows } = await sql<Record<string, string[]>>`select ${sql.join(columns)}`.execute(db);
    return rows[0]!;
  }
  const snapshot: DatabaseSnapshot = {};
  for (const table of tables) {
    const rows = (await db.selectFrom(table as never).selectAll().execute()) as Record<string, unknown>[];
    snapshot[table] = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
  }
  return snapshot;
}

export const sameSnapshot = (a: DatabaseSnapshot, b: DatabaseSnapshot) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A cheap mark that differs whenever the stored data may have changed, so a test taking many snapshots takes
 * a full one only then. SQLite: the serving connection's count of changed rows (the app and the test share
 * that one connection; a write rolled back still counts, which only costs a full snapshot). PostgreSQL: a
 * digest of every table's rows, computed by the server, so no row crosses the wire.
 */
export async function changeMark(db: Db, engine: Engine): Promise<string> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{ changes: number }>`select total_changes() as changes`.execute(db);
    return String(rows[0]!.changes);
  }
  const tables = await tablesOf(db);
  const digests = tables.map((table) => sql`(select md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) from ${sql.table(table)} t) as ${sql.ref(table)}`);
  const { rows } = await sql<Record<string, string>>`select ${sql.join(digests)}`.execute(db);
  return JSON.stringify(rows[0]);
}

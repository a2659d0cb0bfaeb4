import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL tells every instance when what their read caches hold changes (src/storage/change-feed.ts):
 * a row of clients, client_secrets, projects or users written by anyone (an instance, the CLI, an
 * operator's SQL) notifies `sesame_cache` with `<table>:<key>` at commit. A secret's `last_used_at` alone
 * is bookkeeping and notifies nobody. SQLite needs nothing: its change mark is `PRAGMA data_version`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create function sesame_cache_notify() returns trigger language plpgsql as $$
    declare
      changed jsonb;
    begin
      if tg_op = 'DELETE' then
        changed := to_jsonb(old);
      else
        changed := to_jsonb(new);
      end if;
      -- tg_argv[0]: the key column; tg_argv[1], when given: a column whose change alone notifies nobody.
      if tg_op = 'UPDATE' and tg_nargs > 1 and (to_jsonb(old) - tg_argv[1]) = (changed - tg_argv[1]) then
        return null;
      end if;
      perform pg_notify('sesame_cache', tg_table_name || ':' || (changed ->> tg_argv[0]));
      return null;
    end
    $$`.execute(db);
  const watched = [
    ['clients', 'client_id'],
    ['client_secrets', 'client_id', 'last_used_at'],
    ['projects', 'project_id'],
    ['users', 'subject_id'],
  ] as const;
  for (const [table, ...args] of watched) {
    const argList = sql.join(args.map((arg) => sql.lit(arg)));
    await sql`create trigger ${sql.id(`${table}_cache_notify`)} after insert or update or delete on ${sql.table(table)} for each row execute function sesame_cache_notify(${argList})`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are append-only; restore a backup to go back.');
}

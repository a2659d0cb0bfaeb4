import type { User } from '../domain/accounts.ts';
import type { Db } from './database.ts';
import type { ProtocolClient } from './repositories/client-repository.ts';

/**
 * A write this process made to a table, as the write watcher (write-watching-dialect.ts) saw it once
 * committed: the columns an update set, or null for an insert or a delete.
 */
export interface TableWrite {
  table: string;
  columns: readonly string[] | null;
}

/** What a change another process made says: the table, and the key of the row that changed. */
export interface RowChange {
  table: string;
  key: string;
}

/**
 * Whether the cache may answer now. The source may empty the cache before it answers (SQLite's change
 * mark moved); false sends every read to the database and keeps what it read out of the cache.
 */
export interface ChangeSource {
  fresh(): boolean;
}

type Section = 'clients' | 'users';

/**
 * Which cached reads each table feeds: the protocol's client (with its project's status and its secrets)
 * and the person. `last_used_at` of a secret is the secrets bridge's bookkeeping (it remembers its own
 * writes), not something a cached client must be read again for. The PostgreSQL triggers
 * (migrations/20261128060000-cache-change-notifications.ts) follow the same table.
 */
const SECTION_OF_TABLE: Record<string, Section> = { clients: 'clients', client_secrets: 'clients', projects: 'clients', users: 'users' };
const BOOKKEEPING_COLUMNS: Record<string, readonly string[]> = { client_secrets: ['last_used_at'] };

// Enough for every client and the people active at once on a large instance; the oldest entry makes room.
const ENTRIES_PER_SECTION = 10_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * The clients and people this process read, kept until a change to them is heard: this process's own
 * writes once committed (at once), another process's through the change source (PostgreSQL's
 * notifications, SQLite's change mark). Without a source, or while it cannot vouch for the cache (the
 * notification connection is down), every read goes to the database. Only hits are kept: an unknown id
 * is read every time, so a made-up client id cannot fill the cache. Entries are frozen: they are shared.
 */
export function createReadCache() {
  const entries: Record<Section, Map<string, unknown>> = { clients: new Map(), users: new Map() };
  let source: ChangeSource | undefined;
  // Moves at every invalidation: a read that began before one does not store what it read.
  let generation = 0;

  const invalidate = (section: Section, key?: string) => {
    generation += 1;
    if (key === undefined) entries[section].clear();
    else entries[section].delete(key);
  };

  async function cached<T>(section: Section, key: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
    if (!source?.fresh()) return read();
    const hit = entries[section].get(key) as T | undefined;
    if (hit !== undefined) return hit;
    const startedAt = generation;
    const value = await read();
    // fresh() first: a change mark that moved during the read empties the cache, and moves the generation.
    if (value !== undefined && source.fresh() && generation === startedAt) {
      const kept = entries[section];
      if (kept.size >= ENTRIES_PER_SECTION) kept.delete(kept.keys().next().value!);
      kept.set(key, deepFreeze(value));
    }
    return value;
  }

  return {
    client: (clientId: string, read: () => Promise<ProtocolClient | undefined>) => cached('clients', clientId, read),
    user: (subjectId: string, read: () => Promise<User | undefined>) => cached('users', subjectId, read),

    /** Serves from memory from now on, as long as `changes` vouches for it. */
    attach(changes: ChangeSource): void {
      source = changes;
    },

    /** Forgets everything: the change source missed changes (it reconnected, or the change mark moved). */
    clear(): void {
      invalidate('clients');
      invalidate('users');
    },

    /** This process committed these writes. */
    written(writes: readonly TableWrite[]): void {
      for (const { table, columns } of writes) {
        const section = SECTION_OF_TABLE[table];
        const ignored = BOOKKEEPING_COLUMNS[table];
        if (section && !(ignored && columns?.every((column) => ignored.includes(column)))) invalidate(section);
      }
    },

    /** Another process changed a row (a notification): only what it feeds is forgotten. */
    changed({ table, key }: RowChange): void {
      // A project's key is the project's id: its clients go; a secret's key is its client's id.
      if (table === 'projects') {
        generation += 1;
        for (const [clientId, client] of entries.clients) if ((client as ProtocolClient).client.projectId === key) entries.clients.delete(clientId);
        return;
      }
      const section = SECTION_OF_TABLE[table];
      if (section) invalidate(section, key);
    },
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;

const cacheOfDatabase = new WeakMap<Db, ReadCache>();

/** Every store opened on one database shares its cache (the services', the provider's, start-up's). */
export function readCacheOf(db: Db): ReadCache | undefined {
  return cacheOfDatabase.get(db);
}

export function registerReadCache(db: Db, cache: ReadCache): void {
  cacheOfDatabase.set(db, cache);
}

import {
  AliasNode,
  ColumnNode,
  DeleteQueryNode,
  InsertQueryNode,
  RawNode,
  TableNode,
  UpdateQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type OperationNode,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { TableWrite } from './read-cache.ts';

const tableName = (node: OperationNode | undefined): string | undefined => {
  if (node && AliasNode.is(node)) return tableName(node.node);
  return node && TableNode.is(node) ? node.table.identifier.name : undefined;
};

// A statement written as raw SQL names its table the same way Kysely does.
const RAW_WRITE = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?([a-z_]+)"?/i;

/** The table a statement writes, and for an update the columns it sets; undefined for a read. */
export function writeOf({ query, sql }: CompiledQuery): TableWrite | undefined {
  if (InsertQueryNode.is(query)) return written(tableName(query.into), null);
  if (DeleteQueryNode.is(query)) return written(tableName(query.from.froms[0]), null);
  if (UpdateQueryNode.is(query)) {
    const columns = (query.updates ?? []).map(({ column }) => (ColumnNode.is(column) ? column.column.name : ''));
    return written(tableName(query.table), columns.includes('') ? null : columns);
  }
  if (RawNode.is(query)) return written(RAW_WRITE.exec(sql)?.[1]?.toLowerCase(), null);
  return undefined;
}

const written = (table: string | undefined, columns: readonly string[] | null): TableWrite | undefined => (table === undefined ? undefined : { table, columns });

/**
 * A dialect whose driver reports every write once it is committed: a statement outside a transaction
 * when it has run, a transaction's statements when it commits. Reporting earlier would let a read on
 * another connection, between the write and its commit, put the old value back in the read cache.
 */
export function watchingWrites(dialect: Dialect, onCommitted: (writes: readonly TableWrite[]) => void): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new WriteWatchingDriver(dialect.createDriver(), onCommitted),
  };
}

class WriteWatchingDriver implements Driver {
  readonly #inner: Driver;
  readonly #onCommitted: (writes: readonly TableWrite[]) => void;
  readonly #watched = new WeakSet<DatabaseConnection>();
  /** The writes of each connection's open transaction. */
  readonly #pending = new WeakMap<DatabaseConnection, TableWrite[]>();

  constructor(inner: Driver, onCommitted: (writes: readonly TableWrite[]) => void) {
    this.#inner = inner;
    this.#onCommitted = onCommitted;
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  }

  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    if (!this.#watched.has(connection)) {
      this.#watched.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const result = await execute<R>(query);
        const write = writeOf(query);
        if (write) {
          const pending = this.#pending.get(connection);
          if (pending) pending.push(write);
          else this.#onCommitted([write]);
        }
        return result;
      };
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.#inner.beginTransaction(connection, settings);
    this.#pending.set(connection, []);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#inner.commitTransaction(connection);
    } finally {
      // A failed COMMIT may still have committed (the answer was lost): forgetting costs only a read.
      const writes = this.#pending.get(connection) ?? [];
      this.#pending.delete(connection);
      if (writes.length > 0) this.#onCommitted(writes);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.#pending.delete(connection);
    await this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

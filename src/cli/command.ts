import type { Readable, Writable } from 'node:stream';
import type { Config } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import type { Services } from '../services/index.ts';
import type { Db, Engine } from '../storage/database.ts';

export interface CliIo {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: Writable;
  stderr: Writable;
}

/** What a command works with once its arguments are known to be right: the server's config, database and services. */
export interface CliRuntime {
  config: Config;
  db: Db;
  engine: Engine;
  clock: Clock;
  services: Services;
  /** Migrations this run applied before the command (usually none). */
  appliedMigrations: string[];
}

export interface CliEnvironment {
  io: CliIo;
  /** Opens the database and applies migrations; called only after a command has parsed its arguments. */
  open(): Promise<CliRuntime>;
}

export interface CliCommand {
  /** The words that select it, e.g. ['user', 'add']. */
  words: readonly string[];
  usage: string;
  summary: string;
  /** Extra lines for `sesame <command> --help`. */
  details?: readonly string[];
  run(args: string[], env: CliEnvironment): Promise<void>;
}

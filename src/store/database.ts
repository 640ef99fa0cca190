/**
 * The dialect seam: what a store of Porchlight's own data may ask of a database. Stores write
 * portable SQL through `Sql` and never touch a driver, so a second dialect is a second
 * implementation of `Database`, not a second store. Rules for the SQL a store writes:
 *
 * - positional `?` placeholders (the PostgreSQL dialect numbers them `$1, $2, …`; no `?` inside
 *   string literals);
 * - `INSERT … ON CONFLICT (…) DO NOTHING` / `DO UPDATE SET c = excluded.c` (never `INSERT OR …`),
 *   and `RETURNING` for generated keys (never a driver's last-insert id);
 * - times as ISO text from time.ts (a `timestamptz` in PostgreSQL), ids from ids.ts;
 * - every write that depends on a row's state guards it in its WHERE (`… AND state = 'pending'`)
 *   and reads `changes`, so it stays right with several writers under READ COMMITTED; a claim of
 *   several rows ends its SELECT with `skipLockedRows(dialect, alias)`;
 * - schema changes only in migrations (migrations.ts), with one script per dialect.
 *
 * The interface is asynchronous, as PostgreSQL's drivers are, although node:sqlite is not: the
 * SQLite dialect runs each call, and each transaction whole, one after the other behind one
 * queue, so that two callers never interleave statements on its one connection. Inside
 * `transaction(tx => …)` use `tx` only (a call on the database itself would wait for the
 * transaction that is waiting for it), one statement at a time (no Promise.all on `tx`).
 */
import type { Row, SqlParam } from './rows.ts';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The end of a claiming `SELECT … ORDER BY … LIMIT n` inside a transaction that then updates the
 * rows it read: on PostgreSQL `FOR UPDATE OF alias SKIP LOCKED`, so that two claimers at once take
 * different rows instead of the second waiting for the first's rows and then finding them gone
 * (it would claim fewer than it could, or nothing). SQLite needs none: `BEGIN IMMEDIATE` already
 * runs one writer at a time.
 */
export function skipLockedRows(dialect: DialectName, alias: string): string {
  return dialect === 'postgres' ? `FOR UPDATE OF ${alias} SKIP LOCKED` : '';
}

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface Sql {
  all(sql: string, ...params: SqlParam[]): Promise<Row[]>;
  get(sql: string, ...params: SqlParam[]): Promise<Row | undefined>;
  run(sql: string, ...params: SqlParam[]): Promise<RunResult>;
}

/** The statements of one open transaction. */
export interface Transaction extends Sql {
  /** A nested transaction (a savepoint): an inner failure undoes only the inner part. */
  savepoint<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs a migration's script (several statements, no parameters). Only for migrations.ts. */
  execScript(sql: string): Promise<void>;
  /** Keeps a legacy version record in step (SQLite's user_version), so that an older Porchlight sees the newer schema and refuses it. */
  noteLegacyVersion(version: number): Promise<void>;
}

export interface Database extends Sql {
  readonly dialect: DialectName;
  /** Runs `work` atomically: committed when it settles, rolled back when it rejects (the error is passed on). */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Runs one migration's `work` in its own transaction. `rebuildsTables`: the script copies tables
   * into new ones (SQLite cannot alter a column), so references are checked once at its end.
   */
  migrationTransaction(work: (tx: Transaction) => Promise<void>, options: { rebuildsTables: boolean }): Promise<void>;
  /**
   * Runs a whole migration run while no other process runs one on this database, so that a
   * second process reads the schema version only after the first is done. PostgreSQL: a session
   * advisory lock, released by a dead connection too. SQLite: each migration's `BEGIN IMMEDIATE`
   * already serializes writers, and the runner re-reads the version inside it.
   */
  migrationRun<T>(work: () => Promise<T>): Promise<T>;
  /** Whether a table of this name exists (the migrations table, before the first migration). */
  tableExists(name: string): Promise<boolean>;
  /** A version recorded before the migrations table existed (SQLite's user_version), else 0. */
  legacyVersion(): Promise<number>;
  /** Waits for the calls under way, then closes. */
  close(): Promise<void>;
}

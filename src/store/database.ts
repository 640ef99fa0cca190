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
 *   and reads `changes`, so it stays right with several writers under READ COMMITTED;
 * - schema changes only in migrations (migrations.ts), with one script per dialect.
 *
 * node:sqlite is synchronous and so is this interface today. PostgreSQL's drivers are not: the
 * PostgreSQL step makes `Sql`'s and `Database`'s methods return Promises and the stores' methods
 * async, a mechanical `await` at each call, because every statement already goes through `Sql`
 * and every multi-statement change through `transaction`.
 */
import type { Row, SqlParam } from './rows.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface Sql {
  all(sql: string, ...params: SqlParam[]): Row[];
  get(sql: string, ...params: SqlParam[]): Row | undefined;
  run(sql: string, ...params: SqlParam[]): RunResult;
}

export interface Database extends Sql {
  readonly dialect: DialectName;
  /**
   * Runs `work` atomically: committed when it returns, rolled back when it throws (the error is
   * rethrown). A nested call is a savepoint: an inner failure undoes only the inner part.
   */
  transaction<T>(work: (tx: Sql) => T): T;
  /** Runs a migration's script (several statements, no parameters). Only for migrations.ts. */
  execScript(sql: string): void;
  /**
   * Runs one migration's `work` in its own transaction. `rebuildsTables`: the script copies tables
   * into new ones (SQLite cannot alter a column), so references are checked once at its end.
   */
  migrationTransaction(work: () => void, options: { rebuildsTables: boolean }): void;
  /** Whether a table of this name exists (the migrations table, before the first migration). */
  tableExists(name: string): boolean;
  /** A version recorded before the migrations table existed (SQLite's user_version), else 0. */
  legacyVersion(): number;
  /** Keeps that legacy record in step, so that an older Porchlight sees the newer schema and refuses it. */
  noteLegacyVersion(version: number): void;
  close(): void;
}

import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Database, DialectName, RunResult, Sql } from './database.ts';
import { createPrivateFile } from './private-file.ts';
import { readRow, type Row, type SqlParam } from './rows.ts';

/** A plain file name (not `:memory:`, not a `file:` URI, which SQLite opens its own way). */
const isFilePath = (path: string): boolean => path !== ':memory:' && path !== '' && !path.startsWith('file:');

/**
 * The SQLite dialect on node:sqlite: one connection, its file created 0600, WAL (so that the
 * operators' scripts read and write while Porchlight runs), a cache of prepared statements,
 * `BEGIN IMMEDIATE` transactions (the write lock is taken at the start, so two writers never
 * deadlock upgrading) and savepoints for nested ones.
 */
export class SqliteDatabase implements Database {
  readonly dialect: DialectName = 'sqlite';
  private readonly connection: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private savepointDepth = 0;

  constructor(path: string) {
    if (isFilePath(path)) createPrivateFile(path);
    this.connection = new DatabaseSync(path, { enableForeignKeyConstraints: true });
    this.connection.exec('PRAGMA busy_timeout = 5000');
    if (path !== ':memory:' && path !== '') {
      this.connection.exec('PRAGMA journal_mode = WAL');
      this.connection.exec('PRAGMA synchronous = NORMAL');
    }
  }

  private statement(sql: string): StatementSync {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.connection.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  all(sql: string, ...params: SqlParam[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  get(sql: string, ...params: SqlParam[]): Row | undefined {
    return this.statement(sql).get(...params) as Row | undefined;
  }

  run(sql: string, ...params: SqlParam[]): RunResult {
    return { changes: Number(this.statement(sql).run(...params).changes) };
  }

  transaction<T>(work: (tx: Sql) => T): T {
    if (this.connection.isTransaction) return this.savepoint(work);
    this.connection.exec('BEGIN IMMEDIATE');
    try {
      const result = work(this);
      this.connection.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.connection.isTransaction) this.connection.exec('ROLLBACK');
      throw error;
    }
  }

  private savepoint<T>(work: (tx: Sql) => T): T {
    const name = `sp_${++this.savepointDepth}`;
    this.connection.exec(`SAVEPOINT ${name}`);
    try {
      const result = work(this);
      this.connection.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.connection.exec(`ROLLBACK TO ${name}`);
      this.connection.exec(`RELEASE ${name}`);
      throw error;
    } finally {
      this.savepointDepth--;
    }
  }

  execScript(sql: string): void {
    this.connection.exec(sql);
  }

  migrationTransaction(work: () => void, options: { rebuildsTables: boolean }): void {
    // SQLite's recipe for rebuilding a table: references off (they cannot change inside a
    // transaction), rebuild, check every reference, commit, references on again.
    if (options.rebuildsTables) this.connection.exec('PRAGMA foreign_keys = OFF');
    try {
      this.transaction(() => {
        work();
        if (options.rebuildsTables) {
          const broken = this.connection.prepare('PRAGMA foreign_key_check').all();
          if (broken.length > 0) throw new Error(`migration left ${broken.length} broken references (first in table ${String(broken[0]?.table)})`);
        }
      });
    } finally {
      if (options.rebuildsTables) this.connection.exec('PRAGMA foreign_keys = ON');
    }
  }

  tableExists(name: string): boolean {
    return this.get("SELECT 1 AS found FROM sqlite_schema WHERE type = 'table' AND name = ?", name) !== undefined;
  }

  legacyVersion(): number {
    const row = this.connection.prepare('PRAGMA user_version').get() as Row | undefined;
    return row ? readRow('pragma', row).int('user_version') : 0;
  }

  noteLegacyVersion(version: number): void {
    // PRAGMA takes no bound parameters; the version is a checked integer from a migration list.
    if (!Number.isSafeInteger(version) || version < 0) throw new TypeError(`schema version ${version}`);
    this.connection.exec(`PRAGMA user_version = ${version}`);
  }

  close(): void {
    this.statements.clear();
    if (this.connection.isOpen) this.connection.close();
  }
}

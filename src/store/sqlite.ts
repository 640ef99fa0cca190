import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Database, DialectName, RunResult, Transaction } from './database.ts';
import { createPrivateFile } from './private-file.ts';
import { readRow, type Row, type SqlParam } from './rows.ts';

/** A plain file name (not `:memory:`, not a `file:` URI, which SQLite opens its own way). */
const isFilePath = (path: string): boolean => path !== ':memory:' && path !== '' && !path.startsWith('file:');

/** The statements themselves, run at once on the one connection (by the queue, or inside its transaction). */
class Connection {
  readonly raw: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private savepointDepth = 0;

  constructor(path: string) {
    this.raw = new DatabaseSync(path, { enableForeignKeyConstraints: true });
  }

  private statement(sql: string): StatementSync {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.raw.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  all(sql: string, params: SqlParam[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  get(sql: string, params: SqlParam[]): Row | undefined {
    return this.statement(sql).get(...params) as Row | undefined;
  }

  run(sql: string, params: SqlParam[]): RunResult {
    return { changes: Number(this.statement(sql).run(...params).changes) };
  }

  async inTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    this.raw.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(this.transaction);
      this.raw.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.raw.isTransaction) this.raw.exec('ROLLBACK');
      throw error;
    }
  }

  private async savepoint<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepointDepth}`;
    this.raw.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work(this.transaction);
      this.raw.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.raw.exec(`ROLLBACK TO ${name}`);
      this.raw.exec(`RELEASE ${name}`);
      throw error;
    } finally {
      this.savepointDepth--;
    }
  }

  /** The handle a transaction's work gets: straight to the connection, which the transaction holds. */
  readonly transaction: Transaction = {
    all: async (sql, ...params) => this.all(sql, params),
    get: async (sql, ...params) => this.get(sql, params),
    run: async (sql, ...params) => this.run(sql, params),
    savepoint: (work) => this.savepoint(work),
    execScript: async (sql) => {
      this.raw.exec(sql);
    },
    noteLegacyVersion: async (version) => {
      // PRAGMA takes no bound parameters; the version is a checked integer from a migration list.
      if (!Number.isSafeInteger(version) || version < 0) throw new TypeError(`schema version ${version}`);
      this.raw.exec(`PRAGMA user_version = ${version}`);
    },
  };

  close(): void {
    this.statements.clear();
    if (this.raw.isOpen) this.raw.close();
  }
}

/**
 * The SQLite dialect on node:sqlite: one connection, its file created 0600, WAL (so that the
 * operators' scripts read and write while Porchlight runs), a cache of prepared statements,
 * `BEGIN IMMEDIATE` transactions (the write lock is taken at the start, so two processes never
 * deadlock upgrading) and savepoints for nested ones. node:sqlite is synchronous: each call and
 * each transaction runs whole, in turn, behind one queue (see database.ts).
 */
export class SqliteDatabase implements Database {
  readonly dialect: DialectName = 'sqlite';
  private readonly connection: Connection;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    if (isFilePath(path)) createPrivateFile(path);
    this.connection = new Connection(path);
    this.connection.raw.exec('PRAGMA busy_timeout = 5000');
    if (path !== ':memory:' && path !== '') {
      this.connection.raw.exec('PRAGMA journal_mode = WAL');
      this.connection.raw.exec('PRAGMA synchronous = NORMAL');
    }
  }

  /** Runs `work` once everything queued before it has settled. */
  private inTurn<T>(work: () => T | Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  all(sql: string, ...params: SqlParam[]): Promise<Row[]> {
    return this.inTurn(() => this.connection.all(sql, params));
  }

  get(sql: string, ...params: SqlParam[]): Promise<Row | undefined> {
    return this.inTurn(() => this.connection.get(sql, params));
  }

  run(sql: string, ...params: SqlParam[]): Promise<RunResult> {
    return this.inTurn(() => this.connection.run(sql, params));
  }

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.inTurn(() => this.connection.inTransaction(work));
  }

  migrationTransaction(work: (tx: Transaction) => Promise<void>, options: { rebuildsTables: boolean }): Promise<void> {
    return this.inTurn(async () => {
      const raw = this.connection.raw;
      // SQLite's recipe for rebuilding a table: references off (they cannot change inside a
      // transaction), rebuild, check every reference, commit, references on again.
      if (options.rebuildsTables) raw.exec('PRAGMA foreign_keys = OFF');
      try {
        await this.connection.inTransaction(async (tx) => {
          await work(tx);
          if (options.rebuildsTables) {
            const broken = raw.prepare('PRAGMA foreign_key_check').all();
            if (broken.length > 0) throw new Error(`migration left ${broken.length} broken references (first in table ${String(broken[0]?.table)})`);
          }
        });
      } finally {
        if (options.rebuildsTables) raw.exec('PRAGMA foreign_keys = ON');
      }
    });
  }

  migrationRun<T>(work: () => Promise<T>): Promise<T> {
    // Not inTurn: the run's own calls queue behind it.
    return work();
  }

  tableExists(name: string): Promise<boolean> {
    return this.inTurn(() => this.connection.get("SELECT 1 AS found FROM sqlite_schema WHERE type = 'table' AND name = ?", [name]) !== undefined);
  }

  legacyVersion(): Promise<number> {
    return this.inTurn(() => {
      const row = this.connection.raw.prepare('PRAGMA user_version').get() as Row | undefined;
      return row ? readRow('pragma', row).int('user_version') : 0;
    });
  }

  close(): Promise<void> {
    return this.inTurn(() => this.connection.close());
  }
}

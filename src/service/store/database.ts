import { chmodSync, closeSync, constants, existsSync, openSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/**
 * The store holds every organization's data and key hashes: its file is created readable by its
 * owner only (0600), and SQLite gives its -wal and -shm files the same mode. A file left by an older
 * version with a wider mode is narrowed when possible (a read-only or foreign file is left as it is).
 */
function makePrivate(path: string): void {
  closeSync(openSync(path, constants.O_CREAT | constants.O_RDWR, 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if (existsSync(file)) chmodSync(file, 0o600);
    } catch {
      // Not ours to change: SQLite reports any real problem when it opens the file.
    }
  }
}

/** A plain file name (not `:memory:`, not a `file:` URI, which SQLite opens its own way). */
const isFilePath = (path: string): boolean => path !== ':memory:' && path !== '' && !path.startsWith('file:');

/**
 * One SQLite connection with a prepared-statement cache and a transaction helper.
 * Node's DatabaseSync is synchronous, so a transaction can never interleave with another request.
 */
export class Database {
  readonly connection: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private savepointDepth = 0;

  constructor(path: string) {
    if (isFilePath(path)) makePrivate(path);
    this.connection = new DatabaseSync(path, { enableForeignKeyConstraints: true });
    this.connection.exec('PRAGMA foreign_keys = ON');
    this.connection.exec('PRAGMA busy_timeout = 5000');
    if (path !== ':memory:' && path !== '') {
      // WAL lets the CLI write while a running service reads the same file.
      this.connection.exec('PRAGMA journal_mode = WAL');
      this.connection.exec('PRAGMA synchronous = NORMAL');
    }
  }

  /** A cached prepared statement for this SQL text. */
  statement(sql: string): StatementSync {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.connection.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * Runs `work` atomically: COMMIT when it returns, ROLLBACK when it throws (the error is rethrown).
   * Nested calls use savepoints so an inner failure only undoes the inner part.
   */
  transaction<T>(work: () => T): T {
    if (this.connection.isTransaction) return this.savepoint(work);
    this.connection.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.connection.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.connection.isTransaction) this.connection.exec('ROLLBACK');
      throw error;
    }
  }

  private savepoint<T>(work: () => T): T {
    const name = `sp_${++this.savepointDepth}`;
    this.connection.exec(`SAVEPOINT ${name}`);
    try {
      const result = work();
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

  close(): void {
    this.statements.clear();
    if (this.connection.isOpen) this.connection.close();
  }
}

/**
 * The one migration runner of Porchlight's own stores. Each store keeps an ordered list of
 * versioned migrations (append new ones, never edit applied ones), with one script per dialect.
 * Applied versions are recorded in the store's `schema_migrations` table (version, description,
 * time applied). A database whose recorded version is newer than the list is refused before
 * anything is written, with one StoreVersionError. Files from before the table (SQLite's
 * `PRAGMA user_version`) are adopted: their versions are recorded as applied, and the legacy
 * number is kept in step so that an older Porchlight refuses a newer file the way it always has.
 *
 * Each migration runs in its own transaction and first re-reads the recorded version, so two
 * processes starting at once apply it once: SQLite's `BEGIN IMMEDIATE` serializes them, and the
 * PostgreSQL dialect takes an advisory lock (`pg_advisory_xact_lock`) at the start of each
 * migration transaction, so the others wait for it and then find the version recorded. On
 * PostgreSQL the whole run also holds a session lock (Database.migrationRun), so a second process
 * starts reading only when the first is done. The result names what this process changed.
 *
 * Dialects: each migration carries `scripts.sqlite` and `scripts.postgres`, each bringing that
 * dialect's schema from the version before to this one. They need not do the same work: a
 * PostgreSQL database starts with the schema's final types (a SQLite table rebuild can be a
 * no-op there, `NO_CHANGE`), but both must leave the same tables and columns, so that the store's
 * portable SQL reads the same rows from either.
 */
import type { Database, DialectName, Sql } from './database.ts';
import { StoreVersionError } from './errors.ts';
import { readRow } from './rows.ts';
import { storedTime } from './time.ts';

export interface Migration {
  version: number;
  description: string;
  /** The script for each dialect; a dialect without one cannot open this store's version. */
  scripts: Partial<Record<DialectName, string>>;
  /** The SQLite script rebuilds tables (copies them into new ones); see Database.migrationTransaction. */
  rebuildsTables?: boolean;
}

/** A migration script that changes nothing in a dialect (the change was already made there, or concerns only the other). */
export const NO_CHANGE = 'SELECT 1';

export interface MigrationList {
  /** The store's name, for errors ("subscribers"). */
  store: string;
  migrations: readonly Migration[];
}

const TABLE = 'schema_migrations';
const CREATE_TABLE: Record<DialectName, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS ${TABLE} (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`,
  postgres: `CREATE TABLE IF NOT EXISTS ${TABLE} (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL)`,
};

/** The newest version a list knows. */
export function latestVersion(list: MigrationList): number {
  return list.migrations.at(-1)?.version ?? 0;
}

function checkList(list: MigrationList): void {
  list.migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`${list.store} migrations: version ${migration.version} at position ${index + 1} (versions run 1, 2, 3 … without gaps)`);
  });
}

async function recordedVersion(sql: Sql): Promise<number> {
  const row = await sql.get(`SELECT MAX(version) AS version FROM ${TABLE}`);
  return row ? (readRow(TABLE, row).intOrNull('version') ?? 0) : 0;
}

/** The version a database is at: its recorded migrations, else its legacy version. */
export async function schemaVersion(db: Database): Promise<number> {
  const recorded = (await db.tableExists(TABLE)) ? await recordedVersion(db) : 0;
  return Math.max(recorded, await db.legacyVersion());
}

/**
 * Brings `db` up to the newest version of `list`. Resolves to the versions it went from and to.
 * Rejects with StoreVersionError, having written nothing, when the database is newer than the list.
 */
export async function migrate(db: Database, list: MigrationList, now: () => number = Date.now): Promise<{ from: number; to: number }> {
  checkList(list);
  return db.migrationRun(() => migrateNow(db, list, now));
}

async function migrateNow(db: Database, list: MigrationList, now: () => number): Promise<{ from: number; to: number }> {
  const latest = latestVersion(list);
  const from = await schemaVersion(db);
  if (from > latest) throw new StoreVersionError(list.store, from, latest);

  const record = (tx: Sql, version: number, description: string) =>
    tx.run(`INSERT INTO ${TABLE} (version, description, applied_at) VALUES (?, ?, ?) ON CONFLICT (version) DO NOTHING`, version, description, storedTime(now()));
  const legacy = await db.legacyVersion();
  if (!(await db.tableExists(TABLE)) || (await recordedVersion(db)) < legacy) {
    // A migration transaction: on PostgreSQL under the advisory lock, as two processes may both get here.
    await db.migrationTransaction(async (tx) => {
      await tx.execScript(CREATE_TABLE[db.dialect]);
      for (const migration of list.migrations) if (migration.version <= legacy) await record(tx, migration.version, `${migration.description} (recorded before ${TABLE})`);
    }, { rebuildsTables: false });
  }

  // What this process changed: from the version before the first migration it applied (another
  // process on SQLite may have applied some meanwhile), up to date if it applied none.
  let appliedFrom: number | undefined;
  for (const migration of list.migrations) {
    if (migration.version <= from) continue;
    const script = migration.scripts[db.dialect];
    if (script === undefined) throw new Error(`${list.store} migration ${migration.version} has no ${db.dialect} script`);
    await db.migrationTransaction(
      async (tx) => {
        const recorded = await recordedVersion(tx);
        if (recorded >= migration.version) return;
        appliedFrom ??= recorded;
        await tx.execScript(script);
        await record(tx, migration.version, migration.description);
        await tx.noteLegacyVersion(migration.version);
      },
      { rebuildsTables: migration.rebuildsTables === true },
    );
  }
  return { from: appliedFrom ?? latest, to: latest };
}

/**
 * Where a store of Porchlight's own data lives: a SQLite file (the default, zero setup) or a
 * PostgreSQL database (DATABASE_URL), in the store's own schema there. The PostgreSQL dialect and
 * its driver load only when used.
 */
import type { Database } from './database.ts';
import { migrate, type MigrationList } from './migrations.ts';
import { SqliteDatabase } from './sqlite.ts';

export type StoreLocation =
  | { dialect: 'sqlite'; path: string }
  /** `schema`: the store's PostgreSQL schema (defaults to the store's name). */
  | { dialect: 'postgres'; url: string; schema?: string };

/** The location of a store from its settings: DATABASE_URL when set, else its SQLite file. */
export function storeLocation(databaseUrl: string | null | undefined, sqlitePath: string): StoreLocation {
  return databaseUrl ? { dialect: 'postgres', url: databaseUrl } : { dialect: 'sqlite', path: sqlitePath };
}

/** Where a location is, for logs and messages: the file, or `PostgreSQL` (never the URL, which may carry a password). */
export function describeLocation(location: StoreLocation): string {
  return location.dialect === 'sqlite' ? location.path : 'PostgreSQL (DATABASE_URL)';
}

/** Opens the database of the store named `store` (its default PostgreSQL schema). */
export async function openDatabase(location: StoreLocation, store: string): Promise<Database> {
  if (location.dialect === 'sqlite') return new SqliteDatabase(location.path);
  const { PostgresDatabase } = await import('./postgres.ts');
  return PostgresDatabase.open(location.url, { schema: location.schema ?? store });
}

/**
 * Opens the database of the store `list` names and brings it to the list's newest version; closes
 * it again when that fails (StoreVersionError, a failing migration), so no connection is left open.
 */
export async function openMigrated(location: StoreLocation, list: MigrationList): Promise<Database> {
  const db = await openDatabase(location, list.store);
  try {
    await migrate(db, list);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

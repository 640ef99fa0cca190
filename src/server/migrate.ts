/**
 * `npm run migrate`: brings the schema of each of Porchlight's stores to this code's version and
 * does nothing else (with `-- --from-sqlite FILE`: first copies the subscribers' SQLite file into
 * the empty PostgreSQL store, see store/copy-store.ts) (no server, no threads), so that a deployment can migrate once before its
 * replicas start. Reads the same settings as `npm start` (DATABASE_URL, SUBSCRIBERS_DB, AUDIENCES_DB; the sign-in store's auth.db sits beside the subscribers' file). On
 * PostgreSQL, processes migrating at once take turns under an advisory lock; a database newer
 * than the code is refused, with nothing written. Problems: one line on stderr, exit 1.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../contract/config-error.ts';
import { checkSourceVersion, copyStore, StoreCopyError } from '../store/copy-store.ts';
import { SqliteDatabase } from '../store/sqlite.ts';
import { StoreConnectError, StoreVersionError } from '../store/errors.ts';
import { describeLocation, openDatabase, storeLocation, type StoreLocation } from '../store/location.ts';
import { migrate, type MigrationList } from '../store/migrations.ts';
import { SERVICE_MIGRATIONS, SERVICE_SCHEMA } from '../service/store/migrations.ts';
import { serviceLocation } from '../service/store/store.ts';
import { SUBSCRIBER_MIGRATIONS } from '../subscribers/migrations.ts';
import { SITE_MIGRATIONS } from './fanout/site-store.ts';
import { AUTH_MIGRATIONS } from '../auth/migrations.ts';
import { authLocation } from '../auth/location.ts';
import { AUDIENCE_MIGRATIONS } from '../audiences/migrations.ts';
import { CONSOLE_MIGRATIONS } from '../console/migrations.ts';
import { consoleLocation } from '../console/store.ts';
import { loadLauncherConfig, type LauncherConfig } from './config.ts';

interface MigratedStore {
  migrations: MigrationList;
  /** Null: this store does not exist with these settings. */
  location(config: LauncherConfig): StoreLocation | null;
}

/**
 * The stores this command migrates, in order: the subscribers' (schema `subscribers` on
 * PostgreSQL, SUBSCRIBERS_DB on SQLite), the site replicas' (schema `site`, PostgreSQL only) and
 * the embedded API's (schema `service`, DATABASE_PATH on SQLite). Each is migrated also when
 * `npm start` (or `npm run api`) opens it.
 */
const STORES: readonly MigratedStore[] = [
  { migrations: SUBSCRIBER_MIGRATIONS, location: (config) => storeLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
  // Sessions and the sign-in throttle (src/auth/): auth.db beside the subscribers' file, or the schema `auth`.
  { migrations: AUTH_MIGRATIONS, location: (config) => authLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
  // Who may read a non-public page (docs/private-pages.md): AUDIENCES_DB, or the schema `audiences`.
  { migrations: AUDIENCE_MIGRATIONS, location: (config) => storeLocation(config.launcher.DATABASE_URL, config.launcher.AUDIENCES_DB) },
  // The site replicas' push fan-out and shared push token (server/fanout/): PostgreSQL only.
  { migrations: SITE_MIGRATIONS, location: (config) => (config.launcher.DATABASE_URL ? { dialect: 'postgres', url: config.launcher.DATABASE_URL } : null) },
  // The console's operators and audit trail: console.db beside them, or the schema `console`.
  { migrations: CONSOLE_MIGRATIONS, location: (config) => consoleLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
  { migrations: SERVICE_MIGRATIONS, location: (config) => serviceLocation(config.launcher.DATABASE_URL, config.launcher.DATABASE_PATH) },
];

/**
 * The stores `--from-sqlite` copies, each recognized in a SQLite file by a table only it has: the
 * subscribers' (SUBSCRIBERS_DB) and the embedded API's (DATABASE_PATH, schema `service`); the first
 * is the default.
 */
const COPIED_STORES: readonly { migrations: MigrationList; schema: string; marker: string }[] = [
  { migrations: SUBSCRIBER_MIGRATIONS, schema: SUBSCRIBER_MIGRATIONS.store, marker: 'subscribers' },
  { migrations: SERVICE_MIGRATIONS, schema: SERVICE_SCHEMA, marker: 'monitors' },
];
const USAGE = 'usage: npm run migrate [-- --from-sqlite FILE [--from-sqlite FILE]]';

/** `--from-sqlite FILE`, once per file (the subscribers' and the embedded API's), or nothing; anything else is a usage error. */
export function parseMigrateArgs(args: readonly string[]): { fromSqlite: string[] } {
  const files: string[] = [];
  for (let index = 0; index < args.length; index += 2) {
    const file = args[index + 1];
    if (args[index] !== '--from-sqlite' || !file || file.startsWith('-')) throw new ConfigError(USAGE);
    files.push(file);
  }
  return { fromSqlite: files };
}

/**
 * `--from-sqlite FILE`: the store in FILE (SQLite, at this code's schema version; which store,
 * from its tables) copied whole into the empty one at DATABASE_URL (see store/copy-store.ts).
 */
async function copyFromSqlite(file: string, databaseUrl: string | undefined, out: (line: string) => void): Promise<void> {
  if (!databaseUrl) throw new ConfigError('--from-sqlite copies into PostgreSQL: set DATABASE_URL');
  // Opening a missing file would create an empty one.
  if (!existsSync(file)) throw new ConfigError(`--from-sqlite: no file ${file}`);
  const source = new SqliteDatabase(file);
  try {
    const tables = new Set((await source.all("SELECT name FROM sqlite_master WHERE type = 'table'")).map((row) => String(row.name)));
    // A file of neither (or an old subscribers' file without its table yet) is the subscribers' store, refused by its version.
    const copied = COPIED_STORES.find((store) => tables.has(store.marker)) ?? COPIED_STORES[0]!;
    await checkSourceVersion(source, copied.migrations);
    const target = await openDatabase({ dialect: 'postgres', url: databaseUrl, schema: copied.schema }, copied.schema);
    try {
      const rows = await copyStore(source, target, copied.migrations);
      const total = rows.reduce((sum, table) => sum + table.rows, 0);
      out(`${copied.migrations.store}: copied ${total} rows from ${file} into PostgreSQL (DATABASE_URL): ${rows.map((table) => `${table.table} ${table.rows}`).join(', ')}`);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** Runs the migrations; resolves to the exit code. `out` gets progress, `err` one line per problem. */
export async function runMigrate(env: NodeJS.ProcessEnv, out: (line: string) => void, err: (line: string) => void, args: readonly string[] = []): Promise<number> {
  try {
    const { fromSqlite } = parseMigrateArgs(args);
    const config = loadLauncherConfig(env);
    for (const file of fromSqlite) {
      await copyFromSqlite(file, config.launcher.DATABASE_URL, out);
      // The other stores are migrated as usual below (the copied one is found up to date).
    }
    for (const store of STORES) {
      const location = store.location(config);
      if (location === null) continue;
      const db = await openDatabase(location, location.dialect === 'postgres' ? (location.schema ?? store.migrations.store) : store.migrations.store);
      try {
        const { from, to } = await migrate(db, store.migrations);
        out(from === to ? `${store.migrations.store}: schema version ${to}, up to date (${describeLocation(location)})` : `${store.migrations.store}: schema version ${from} → ${to} (${describeLocation(location)})`);
      } finally {
        await db.close();
      }
    }
    return 0;
  } catch (error) {
    // Settings, the server, a newer schema: their messages are the one line. Anything else (a
    // failing migration, rolled back whole) is said in one line too, never with a stack.
    const known = error instanceof ConfigError || error instanceof StoreConnectError || error instanceof StoreVersionError || error instanceof StoreCopyError;
    err(`porchlight migrate: ${known || error instanceof Error ? (error as Error).message.split('\n')[0] : String(error)}`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await runMigrate(
    process.env,
    (line) => process.stdout.write(`${line}\n`),
    (line) => process.stderr.write(`${line}\n`),
    process.argv.slice(2),
  );
}

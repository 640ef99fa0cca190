/**
 * `npm run migrate`: brings the schema of each of Porchlight's stores to this code's version and
 * does nothing else (no server, no threads), so that a deployment can migrate once before its
 * replicas start. Reads the same settings as `npm start` (DATABASE_URL, SUBSCRIBERS_DB; the sign-in store's auth.db sits beside the subscribers' file). On
 * PostgreSQL, processes migrating at once take turns under an advisory lock; a database newer
 * than the code is refused, with nothing written. Problems: one line on stderr, exit 1.
 */
import { ConfigError } from '../contract/config-error.ts';
import { StoreConnectError, StoreVersionError } from '../store/errors.ts';
import { describeLocation, openDatabase, storeLocation, type StoreLocation } from '../store/location.ts';
import { migrate, type MigrationList } from '../store/migrations.ts';
import { SUBSCRIBER_MIGRATIONS } from '../subscribers/migrations.ts';
import { AUTH_MIGRATIONS } from '../auth/migrations.ts';
import { authLocation } from '../auth/location.ts';
import { CONSOLE_MIGRATIONS } from '../console/migrations.ts';
import { consoleLocation } from '../console/store.ts';
import { loadLauncherConfig, type LauncherConfig } from './config.ts';

interface MigratedStore {
  migrations: MigrationList;
  location(config: LauncherConfig): StoreLocation;
}

/**
 * The stores this command migrates, in order. The embedded API's store (src/service/store/,
 * synchronous node:sqlite, migrated when the API opens it) joins this list once it runs on a
 * `Database` of the floor.
 */
const STORES: readonly MigratedStore[] = [
  { migrations: SUBSCRIBER_MIGRATIONS, location: (config) => storeLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
  // Sessions and the sign-in throttle (src/auth/): auth.db beside the subscribers' file, or the schema `auth`.
  { migrations: AUTH_MIGRATIONS, location: (config) => authLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
  // The console's operators and audit trail: console.db beside them, or the schema `console`.
  { migrations: CONSOLE_MIGRATIONS, location: (config) => consoleLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
];

/** Runs the migrations; resolves to the exit code. `out` gets progress, `err` one line per problem. */
export async function runMigrate(env: NodeJS.ProcessEnv, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  try {
    const config = loadLauncherConfig(env);
    for (const store of STORES) {
      const location = store.location(config);
      const db = await openDatabase(location, store.migrations.store);
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
    const known = error instanceof ConfigError || error instanceof StoreConnectError || error instanceof StoreVersionError;
    err(`porchlight migrate: ${known || error instanceof Error ? (error as Error).message.split('\n')[0] : String(error)}`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await runMigrate(
    process.env,
    (line) => process.stdout.write(`${line}\n`),
    (line) => process.stderr.write(`${line}\n`),
  );
}

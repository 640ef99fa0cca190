/**
 * `npm run migrate`: brings the schema of each of Porchlight's stores to this code's version and
 * does nothing else (no server, no threads), so that a deployment can migrate once before its
 * replicas start. Reads the same settings as `npm start` (DATABASE_URL, SUBSCRIBERS_DB). On
 * PostgreSQL, processes migrating at once take turns under an advisory lock; a database newer
 * than the code is refused, with nothing written. Problems: one line on stderr, exit 1.
 */
import { ConfigError } from '../contract/config-error.ts';
import { StoreConnectError, StoreVersionError } from '../store/errors.ts';
import { describeLocation, openDatabase, storeLocation, type StoreLocation } from '../store/location.ts';
import { migrate, type MigrationList } from '../store/migrations.ts';
import { SERVICE_MIGRATIONS } from '../service/store/migrations.ts';
import { serviceLocation } from '../service/store/store.ts';
import { SUBSCRIBER_MIGRATIONS } from '../subscribers/migrations.ts';
import { loadLauncherConfig, type LauncherConfig } from './config.ts';

interface MigratedStore {
  migrations: MigrationList;
  location(config: LauncherConfig): StoreLocation;
}

/**
 * The stores this command migrates, in order: the subscribers' (schema `subscribers` on
 * PostgreSQL, SUBSCRIBERS_DB on SQLite) and the embedded API's (schema `service`, DATABASE_PATH).
 * The embedded API's store is migrated also when `npm start` or `npm run api` opens it.
 */
const STORES: readonly MigratedStore[] = [
  { migrations: SUBSCRIBER_MIGRATIONS, location: (config) => storeLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
  { migrations: SERVICE_MIGRATIONS, location: (config) => serviceLocation(config.launcher.DATABASE_URL, config.launcher.DATABASE_PATH) },
];

/** Runs the migrations; resolves to the exit code. `out` gets progress, `err` one line per problem. */
export async function runMigrate(env: NodeJS.ProcessEnv, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  try {
    const config = loadLauncherConfig(env);
    for (const store of STORES) {
      const location = store.location(config);
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

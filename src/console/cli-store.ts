/**
 * The console's store as the CLI opens it, on the machine that runs Porchlight: the same settings
 * as `npm start` (DATABASE_URL, else console.db beside SUBSCRIBERS_DB). Also the CLI's audit
 * entries: a change made with `npx porchlight` is recorded here, as `cli:<user>`, when the store
 * is reachable from where the command runs.
 */
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { parseDatabaseUrl } from '../store/database-url.ts';
import { ConsoleStore, consoleDbPath, consoleLocation } from './store.ts';

export function subscribersDbOf(env: NodeJS.ProcessEnv): string {
  return env.SUBSCRIBERS_DB?.trim() || './data/subscribers.db';
}

/** Opens (creating when asked) the console's store; null when it does not exist and `create` is false. */
export async function openConsoleStore(env: NodeJS.ProcessEnv, create: boolean): Promise<ConsoleStore | null> {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl !== null) parseDatabaseUrl(databaseUrl);
  else if (!create && !existsSync(consoleDbPath(subscribersDbOf(env)))) return null;
  return ConsoleStore.open(consoleLocation(databaseUrl, subscribersDbOf(env)));
}

/** Who ran the CLI, for the audit trail. */
export function cliActor(): string {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry (a container): the uid is all there is.
    name = String(process.getuid?.() ?? 'unknown');
  }
  return `cli:${name}`;
}

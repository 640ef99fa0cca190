/**
 * `npm run create-org -- "Acme" pro`: creates an organization in DATABASE_PATH
 * (default ./data/porchlight.db) and prints ONLY its new API key on stdout, so it can be captured.
 */
import { PLANS, type Plan } from '../../contract/organization.ts';
import { ConfigError, databaseUrl, DEFAULT_DATABASE_PATH } from '../config.ts';
import { ensureDatabaseFolder } from '../database-path.ts';
import { createOrganization, InvalidOrganizationError } from '../index.ts';
import { serviceLocation, Store } from '../store/store.ts';

const USAGE = 'usage: create-org <name> [free|pro]';

class UsageError extends Error {}

function parseArgs(args: readonly string[]): { name: string; plan: Plan } {
  const [name, planArg = 'free', ...rest] = args;
  if (name === undefined || name.trim() === '' || rest.length > 0) throw new UsageError(USAGE);
  const plan = PLANS.find((candidate) => candidate === planArg.toLowerCase());
  if (!plan) throw new UsageError(`plan must be free or pro, got ${JSON.stringify(planArg)}\n${USAGE}`);
  return { name, plan };
}

function databasePath(): string {
  const raw = process.env.DATABASE_PATH;
  if (raw === undefined) return DEFAULT_DATABASE_PATH;
  if (raw.trim() === '') throw new ConfigError('DATABASE_PATH', 'must not be empty');
  return raw.trim();
}

try {
  const input = parseArgs(process.argv.slice(2));
  const path = databasePath();
  const url = databaseUrl(process.env);
  if (!url) ensureDatabaseFolder(path);
  const store = await Store.open(serviceLocation(url, path));
  try {
    const { apiKey } = await createOrganization(store, input);
    process.stdout.write(`${apiKey}\n`);
  } finally {
    await store.close();
  }
} catch (error) {
  if (error instanceof UsageError || error instanceof InvalidOrganizationError) console.error(error.message);
  else if (error instanceof ConfigError) console.error(`Invalid setting ${error.message}`);
  else console.error(`create-org failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}

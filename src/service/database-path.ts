import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates the folder a database file lives in (nothing to do for ':memory:'). */
export function ensureDatabaseFolder(databasePath: string): void {
  if (databasePath === ':memory:') return;
  mkdirSync(dirname(databasePath), { recursive: true });
}

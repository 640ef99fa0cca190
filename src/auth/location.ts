/**
 * Where the sign-in store lives: the schema `auth` of DATABASE_URL's PostgreSQL database when it
 * is set, else a SQLite file `auth.db` beside the subscribers' file (SUBSCRIBERS_DB), so that one
 * folder holds Porchlight's own data.
 */
import { dirname, join } from 'node:path';
import { storeLocation, type StoreLocation } from '../store/location.ts';

export function authDbPath(subscribersDb: string): string {
  return subscribersDb === ':memory:' ? ':memory:' : join(dirname(subscribersDb), 'auth.db');
}

export function authLocation(databaseUrl: string | null | undefined, subscribersDb: string): StoreLocation {
  return storeLocation(databaseUrl, authDbPath(subscribersDb));
}

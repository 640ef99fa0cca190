/**
 * The site replicas' shared little store on PostgreSQL (schema `site`, only with DATABASE_URL):
 * the data version the push fan-out bumps with each notification (the slow poll's safety net,
 * version-poll.ts) and the secrets every replica must answer alike (the push token, when
 * PUSH_TOKEN is not set). Without DATABASE_URL a site is one process and keeps neither here.
 */
import type { Database } from '../../store/database.ts';
import { migrate, type MigrationList } from '../../store/migrations.ts';
import { readRow } from '../../store/rows.ts';

const SCRIPT = `
  -- One row: the version of the site's data as the replicas announce it (bumped with each NOTIFY).
  CREATE TABLE site_events (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
  INSERT INTO site_events (id, version) VALUES (1, 0);
  -- Secrets the replicas share (the push token).
  CREATE TABLE site_secrets (name text PRIMARY KEY, value text NOT NULL);
`;

export const SITE_MIGRATIONS: MigrationList = {
  store: 'site',
  migrations: [{ version: 1, description: 'site_events (fan-out version), site_secrets', scripts: { postgres: SCRIPT, sqlite: SCRIPT } }],
};

export async function migrateSiteStore(db: Database): Promise<void> {
  await migrate(db, SITE_MIGRATIONS);
}

/** The version the last notification (of any replica) announced. */
export async function readSiteVersion(db: Database): Promise<number> {
  const row = await db.get('SELECT version FROM site_events WHERE id = 1');
  if (!row) throw new Error('site_events has no row: the site store is not migrated');
  return readRow('site_events', row).int('version');
}

/**
 * The shared secret `name`: the one stored, or `make()`'s, stored first by whichever replica
 * comes first (the others read that one: ON CONFLICT keeps the first).
 */
export async function sharedSecret(db: Database, name: string, make: () => string): Promise<string> {
  await db.run('INSERT INTO site_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', name, make());
  const row = await db.get('SELECT value FROM site_secrets WHERE name = ?', name);
  if (!row) throw new Error(`site_secrets has no ${name}`);
  return readRow('site_secrets', row).text('value');
}

import type { Database } from './database.ts';
import { StoreVersionError } from './errors.ts';
import { int, intOrNull } from './rows.ts';

interface Migration {
  version: number;
  description: string;
  sql: string;
}

/**
 * Ordered schema changes; append new entries, never edit applied ones. Run the way the storage
 * floor's runner runs Porchlight's own stores (src/store/migrations.ts; the service keeps its own
 * copy because it shares nothing with the site but src/contract): each applied version recorded
 * in `schema_migrations`, SQLite's `PRAGMA user_version` kept in step (files from before the table
 * are adopted from it), and a database newer than the code refused before anything is written.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'initial schema',
    sql: `
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        slug TEXT NOT NULL UNIQUE,
        logo TEXT,
        subscription_active INTEGER NOT NULL,
        subscription_plan_name TEXT NOT NULL,
        cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );

      -- Demo-only: the plaintext key of the seeded demo organization, so the launcher can print it.
      CREATE TABLE demo_meta (
        organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        api_key TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE monitors (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('http', 'tcp', 'ping')),
        active INTEGER NOT NULL,
        interval_seconds INTEGER NOT NULL,
        timeout_seconds INTEGER NOT NULL,
        url TEXT,
        host TEXT,
        port INTEGER,
        method TEXT NOT NULL,
        headers_json TEXT NOT NULL,
        body TEXT,
        regions_json TEXT NOT NULL,
        auto_incidents INTEGER NOT NULL,
        rules_json TEXT NOT NULL,
        health TEXT NOT NULL CHECK (health IN ('pending', 'up', 'down', 'degraded')),
        last_status TEXT CHECK (last_status IN ('up', 'down')),
        last_latency INTEGER,
        last_checked_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX monitors_by_organization ON monitors (organization_id, created_at);

      CREATE TABLE checks (
        id TEXT PRIMARY KEY,
        monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('up', 'down')),
        latency INTEGER,
        status_code INTEGER,
        region TEXT NOT NULL,
        error TEXT,
        demo INTEGER NOT NULL DEFAULT 0,
        checked_at TEXT NOT NULL
      );
      CREATE INDEX checks_by_monitor_time ON checks (monitor_id, checked_at DESC);

      CREATE TABLE status_pages (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        slug TEXT NOT NULL UNIQUE,
        is_public INTEGER NOT NULL,
        custom_domain TEXT UNIQUE,
        brand_color TEXT NOT NULL,
        logo_url TEXT,
        header_text TEXT,
        footer_text TEXT,
        custom_css TEXT,
        show_response_times INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX status_pages_by_organization ON status_pages (organization_id, created_at);

      CREATE TABLE status_page_monitors (
        id TEXT PRIMARY KEY,
        page_id TEXT NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        display_name TEXT,
        sort_order INTEGER NOT NULL,
        UNIQUE (page_id, monitor_id)
      );
      CREATE INDEX status_page_monitors_by_monitor ON status_page_monitors (monitor_id);

      -- No endpoint manages subscribers yet; the table exists so page deletion cascades as the spec says.
      CREATE TABLE status_page_subscribers (
        id TEXT PRIMARY KEY,
        page_id TEXT NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        email TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (page_id, email)
      );

      CREATE TABLE incidents (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        severity TEXT NOT NULL CHECK (severity IN ('minor', 'major', 'critical')),
        started_at TEXT NOT NULL,
        resolved_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX incidents_by_organization ON incidents (organization_id, started_at);

      CREATE TABLE incident_updates (
        id TEXT PRIMARY KEY,
        incident_id TEXT NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
        status TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX incident_updates_by_incident ON incident_updates (incident_id, created_at);

      CREATE TABLE incident_monitors (
        incident_id TEXT NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
        monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        PRIMARY KEY (incident_id, monitor_id)
      );
      CREATE INDEX incident_monitors_by_monitor ON incident_monitors (monitor_id);

      CREATE TABLE maintenance_windows (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        description TEXT,
        status TEXT NOT NULL CHECK (status IN ('scheduled', 'in_progress', 'completed', 'cancelled')),
        scheduled_start TEXT NOT NULL,
        scheduled_end TEXT NOT NULL,
        started_at TEXT,
        completed_at TEXT,
        cancelled_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX maintenance_by_organization ON maintenance_windows (organization_id, scheduled_start);

      CREATE TABLE maintenance_monitors (
        window_id TEXT NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
        monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        PRIMARY KEY (window_id, monitor_id)
      );
      CREATE INDEX maintenance_monitors_by_monitor ON maintenance_monitors (monitor_id);

      CREATE TABLE notification_channels (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('slack', 'email')),
        webhook_url TEXT,
        recipient_email TEXT,
        enabled INTEGER NOT NULL,
        on_monitor_down INTEGER NOT NULL,
        on_monitor_recovered INTEGER NOT NULL,
        on_incident_created INTEGER NOT NULL,
        on_incident_resolved INTEGER NOT NULL,
        on_incident_updated INTEGER NOT NULL,
        on_maintenance_scheduled INTEGER NOT NULL,
        on_maintenance_started INTEGER NOT NULL,
        on_maintenance_completed INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX notification_channels_by_organization ON notification_channels (organization_id, created_at);
    `,
  },
  {
    version: 2,
    description: 'monitoring engine: failure streaks, auto incidents, delivery attempts, demo targets',
    sql: `
      -- Consecutive failed checks (any region), for "down after N failures".
      ALTER TABLE monitors ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;

      -- Demo records with made-up targets: the engine never checks such a monitor nor contacts such a
      -- channel (no traffic leaves the machine for the demo). Giving one a new target makes it real.
      ALTER TABLE monitors ADD COLUMN simulated INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE notification_channels ADD COLUMN simulated INTEGER NOT NULL DEFAULT 0;
      UPDATE monitors SET simulated = 1 WHERE organization_id IN (SELECT organization_id FROM demo_meta);
      UPDATE notification_channels SET simulated = 1 WHERE organization_id IN (SELECT organization_id FROM demo_meta);

      -- Demo monitors that check real endpoints of this machine; their target is set on every start.
      CREATE TABLE demo_local_targets (
        monitor_id TEXT PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
        role TEXT NOT NULL UNIQUE CHECK (role IN ('site', 'api', 'closed_port'))
      );
      INSERT OR IGNORE INTO demo_local_targets (monitor_id, role)
        SELECT m.id, CASE m.name WHEN 'Website' THEN 'site' WHEN 'Public API' THEN 'api' ELSE 'closed_port' END
        FROM monitors m JOIN demo_meta d ON d.organization_id = m.organization_id
        WHERE m.name IN ('Website', 'Public API', 'Primary database');

      -- The open incident the engine opened for a monitor, resolved when it recovers.
      CREATE TABLE monitor_auto_incidents (
        monitor_id TEXT PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
        incident_id TEXT NOT NULL REFERENCES incidents(id) ON DELETE CASCADE
      );
      CREATE INDEX monitor_auto_incidents_by_incident ON monitor_auto_incidents (incident_id);

      -- One row per attempt to deliver an event to a channel (never the webhook URL or message body).
      CREATE TABLE notification_deliveries (
        id TEXT PRIMARY KEY,
        delivery_id TEXT NOT NULL,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel_id TEXT NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
        event TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed', 'skipped')),
        will_retry INTEGER NOT NULL,
        status_code INTEGER,
        error TEXT,
        attempted_at TEXT NOT NULL
      );
      CREATE INDEX notification_deliveries_by_channel ON notification_deliveries (channel_id, attempted_at);

      CREATE INDEX maintenance_by_status ON maintenance_windows (status, scheduled_start, scheduled_end);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.reduce((latest, migration) => Math.max(latest, migration.version), 0);

const TABLE = 'schema_migrations';

function tableExists(db: Database): boolean {
  return db.statement("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(TABLE) !== undefined;
}

function recordedVersion(db: Database): number {
  if (!tableExists(db)) return 0;
  const row = db.statement(`SELECT MAX(version) AS version FROM ${TABLE}`).get();
  return row ? (intOrNull(row, 'version') ?? 0) : 0;
}

function legacyVersion(db: Database): number {
  const row = db.connection.prepare('PRAGMA user_version').get();
  return row ? int(row, 'user_version') : 0;
}

/** The version the database is at: its recorded migrations, else SQLite's user_version. */
export function schemaVersion(db: Database): number {
  return Math.max(recordedVersion(db), legacyVersion(db));
}

/** Brings the schema up to SCHEMA_VERSION, one transaction per migration. */
export function migrate(db: Database, now: () => Date = () => new Date()): void {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) throw new StoreVersionError(current, SCHEMA_VERSION);
  const record = (version: number, description: string) =>
    db.statement(`INSERT INTO ${TABLE} (version, description, applied_at) VALUES (?, ?, ?) ON CONFLICT (version) DO NOTHING`).run(version, description, now().toISOString());
  if (!tableExists(db) || recordedVersion(db) < legacyVersion(db)) {
    db.transaction(() => {
      db.connection.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const legacy = legacyVersion(db);
      for (const migration of MIGRATIONS) if (migration.version <= legacy) record(migration.version, `${migration.description} (recorded before ${TABLE})`);
    });
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      // Re-read inside the write lock: two processes opening at once apply it once.
      if (recordedVersion(db) >= migration.version) return;
      db.connection.exec(migration.sql);
      record(migration.version, migration.description);
      // PRAGMA does not take bound parameters; the version is a trusted integer from the list above.
      db.connection.exec(`PRAGMA user_version = ${migration.version}`);
    });
  }
}

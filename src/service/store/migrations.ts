import { NO_CHANGE, type MigrationList } from '../../store/migrations.ts';

/**
 * The embedded API's schema history, run by the storage floor's one migration runner
 * (src/store/migrations.ts): applied versions recorded in `schema_migrations`, SQLite's
 * `PRAGMA user_version` kept in step, a newer database refused. Append new entries, never edit
 * applied ones. The SQLite scripts are exactly the ones this store ran before it moved onto the
 * floor (it recorded them in the same table the same way), so a file written then opens
 * unchanged: its versions 1 and 2 are already recorded, and one from before the table is adopted
 * from its `user_version`. PostgreSQL has no databases from before the floor: its version 1 creates
 * the final schema of SQLite's 1 and 2, and its version 2 changes nothing.
 */
const V1_SQLITE = `
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
    `;

const V2_SQLITE = `
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
    `;

const V1_POSTGRES = `
      -- The final schema of SQLite's versions 1 and 2 in PostgreSQL's types: times are timestamptz
      -- (read back as the floor's ISO text), flags stay integers 0/1 as in SQLite (the store's SQL
      -- compares them with 1 and 0), JSON stays text. Tables the store lists in insertion order get
      -- a generated "rowid", SQLite's implicit column, so that the same ORDER BY … rowid works here.
      CREATE TABLE organizations (
        id text PRIMARY KEY,
        name text NOT NULL,
        slug text NOT NULL UNIQUE,
        logo text,
        subscription_active integer NOT NULL,
        subscription_plan_name text NOT NULL,
        cancel_at_period_end integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL
      );

      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX api_keys_by_organization ON api_keys (organization_id);

      CREATE TABLE demo_meta (
        organization_id text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        api_key text NOT NULL,
        created_at timestamptz NOT NULL
      );

      CREATE TABLE monitors (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('http', 'tcp', 'ping')),
        active integer NOT NULL,
        interval_seconds integer NOT NULL,
        timeout_seconds integer NOT NULL,
        url text,
        host text,
        port integer,
        method text NOT NULL,
        headers_json text NOT NULL,
        body text,
        regions_json text NOT NULL,
        auto_incidents integer NOT NULL,
        rules_json text NOT NULL,
        health text NOT NULL CHECK (health IN ('pending', 'up', 'down', 'degraded')),
        last_status text CHECK (last_status IN ('up', 'down')),
        last_latency integer,
        last_checked_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        consecutive_failures integer NOT NULL DEFAULT 0,
        simulated integer NOT NULL DEFAULT 0
      );
      CREATE INDEX monitors_by_organization ON monitors (organization_id, created_at);

      CREATE TABLE checks (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        monitor_id text NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('up', 'down')),
        latency integer,
        status_code integer,
        region text NOT NULL,
        error text,
        demo integer NOT NULL DEFAULT 0,
        checked_at timestamptz NOT NULL
      );
      CREATE INDEX checks_by_monitor_time ON checks (monitor_id, checked_at DESC);

      CREATE TABLE status_pages (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text NOT NULL UNIQUE,
        is_public integer NOT NULL,
        custom_domain text UNIQUE,
        brand_color text NOT NULL,
        logo_url text,
        header_text text,
        footer_text text,
        custom_css text,
        show_response_times integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX status_pages_by_organization ON status_pages (organization_id, created_at);

      CREATE TABLE status_page_monitors (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        page_id text NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        monitor_id text NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        display_name text,
        sort_order integer NOT NULL,
        UNIQUE (page_id, monitor_id)
      );
      CREATE INDEX status_page_monitors_by_monitor ON status_page_monitors (monitor_id);

      CREATE TABLE status_page_subscribers (
        id text PRIMARY KEY,
        page_id text NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        email text NOT NULL,
        created_at timestamptz NOT NULL,
        UNIQUE (page_id, email)
      );

      CREATE TABLE incidents (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL,
        status text NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        severity text NOT NULL CHECK (severity IN ('minor', 'major', 'critical')),
        started_at timestamptz NOT NULL,
        resolved_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX incidents_by_organization ON incidents (organization_id, started_at);

      CREATE TABLE incident_updates (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        incident_id text NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
        status text NOT NULL,
        message text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX incident_updates_by_incident ON incident_updates (incident_id, created_at);

      CREATE TABLE incident_monitors (
        incident_id text NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
        monitor_id text NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        PRIMARY KEY (incident_id, monitor_id)
      );
      CREATE INDEX incident_monitors_by_monitor ON incident_monitors (monitor_id);

      CREATE TABLE maintenance_windows (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL,
        description text,
        status text NOT NULL CHECK (status IN ('scheduled', 'in_progress', 'completed', 'cancelled')),
        scheduled_start timestamptz NOT NULL,
        scheduled_end timestamptz NOT NULL,
        started_at timestamptz,
        completed_at timestamptz,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX maintenance_by_organization ON maintenance_windows (organization_id, scheduled_start);
      CREATE INDEX maintenance_by_status ON maintenance_windows (status, scheduled_start, scheduled_end);

      CREATE TABLE maintenance_monitors (
        window_id text NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
        monitor_id text NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        PRIMARY KEY (window_id, monitor_id)
      );
      CREATE INDEX maintenance_monitors_by_monitor ON maintenance_monitors (monitor_id);

      CREATE TABLE notification_channels (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('slack', 'email')),
        webhook_url text,
        recipient_email text,
        enabled integer NOT NULL,
        on_monitor_down integer NOT NULL,
        on_monitor_recovered integer NOT NULL,
        on_incident_created integer NOT NULL,
        on_incident_resolved integer NOT NULL,
        on_incident_updated integer NOT NULL,
        on_maintenance_scheduled integer NOT NULL,
        on_maintenance_started integer NOT NULL,
        on_maintenance_completed integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        simulated integer NOT NULL DEFAULT 0
      );
      CREATE INDEX notification_channels_by_organization ON notification_channels (organization_id, created_at);

      CREATE TABLE demo_local_targets (
        monitor_id text PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
        role text NOT NULL UNIQUE CHECK (role IN ('site', 'api', 'closed_port'))
      );

      CREATE TABLE monitor_auto_incidents (
        monitor_id text PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
        incident_id text NOT NULL REFERENCES incidents(id) ON DELETE CASCADE
      );
      CREATE INDEX monitor_auto_incidents_by_incident ON monitor_auto_incidents (incident_id);

      CREATE TABLE notification_deliveries (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        delivery_id text NOT NULL,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel_id text NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
        event text NOT NULL,
        attempt integer NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('delivered', 'failed', 'skipped')),
        will_retry integer NOT NULL,
        status_code integer,
        error text,
        attempted_at timestamptz NOT NULL
      );
      CREATE INDEX notification_deliveries_by_channel ON notification_deliveries (channel_id, attempted_at);
`;

/**
 * When each (monitor, region) check is next due, shared by every process on the database: a
 * scheduler runs a check only after moving `next_at` one interval on with a guarded upsert
 * (store/check-claims.ts), so two processes never run the same check, and a check whose claimer
 * died is due again one interval later for whichever process comes next. `rate_limit_windows`: each
 * API key's request count in the current fixed window, shared by the processes on PostgreSQL
 * (store/rate-limit-windows.ts).
 */
const V3_SQLITE = `
      CREATE TABLE check_claims (
        monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        region TEXT NOT NULL,
        next_at TEXT NOT NULL,
        claimed_by TEXT NOT NULL,
        PRIMARY KEY (monitor_id, region)
      );

      CREATE TABLE rate_limit_windows (
        api_key_id TEXT PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
        window_start TEXT NOT NULL,
        count INTEGER NOT NULL
      );
`;

const V3_POSTGRES = `
      CREATE TABLE check_claims (
        monitor_id text NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        region text NOT NULL,
        next_at timestamptz NOT NULL,
        claimed_by text NOT NULL,
        PRIMARY KEY (monitor_id, region)
      );

      CREATE TABLE rate_limit_windows (
        api_key_id text PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
        window_start timestamptz NOT NULL,
        count integer NOT NULL
      );
`;

/**
 * The notification outbox: one row per (event, channel), inserted when the event is raised, keyed
 * by a deterministic `dedupe_key` (a second raise of the same event adds nothing), claimed by one
 * process's sender with a lease before it is sent (store/notification-outbox.ts). `pending` →
 * `sending` (claimed) → `done`, or `unknown` when its holder died after handing it over.
 */
const V4_SQLITE = `
      CREATE TABLE notification_outbox (
        id TEXT PRIMARY KEY,
        dedupe_key TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel_id TEXT NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
        event TEXT NOT NULL,
        content_json TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'done', 'unknown')),
        attempt INTEGER NOT NULL,
        next_attempt TEXT NOT NULL,
        claimed_by TEXT,
        lease_until TEXT,
        started_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX notification_outbox_due ON notification_outbox (state, next_attempt);
`;

const V4_POSTGRES = `
      CREATE TABLE notification_outbox (
        rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        dedupe_key text NOT NULL UNIQUE,
        organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel_id text NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
        event text NOT NULL,
        content_json text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'sending', 'done', 'unknown')),
        attempt integer NOT NULL,
        next_attempt timestamptz NOT NULL,
        claimed_by text,
        lease_until timestamptz,
        started_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX notification_outbox_due ON notification_outbox (state, next_attempt);
`;

export const SERVICE_MIGRATIONS: MigrationList = {
  store: 'API',
  migrations: [
    { version: 1, description: 'initial schema', scripts: { sqlite: V1_SQLITE, postgres: V1_POSTGRES } },
    {
      version: 2,
      description: 'monitoring engine: failure streaks, auto incidents, delivery attempts, demo targets',
      scripts: { sqlite: V2_SQLITE, postgres: NO_CHANGE },
    },
    {
      version: 3,
      description: 'check claims (each check claimed once across processes) and rate-limit windows shared by processes',
      scripts: { sqlite: V3_SQLITE, postgres: V3_POSTGRES },
    },
    {
      version: 4,
      description: 'notification outbox: each (event, channel) queued once, claimed by one sender with a lease',
      scripts: { sqlite: V4_SQLITE, postgres: V4_POSTGRES },
    },
  ],
};

/** The PostgreSQL schema the embedded API's tables live in (the subscribers' is `subscribers`). */
export const SERVICE_SCHEMA = 'service';

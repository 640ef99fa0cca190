/**
 * The subscribers store's schema: one ordered list of migrations for the storage floor's runner
 * (src/store/migrations.ts), which records them in `schema_migrations`. Append new entries, never
 * edit applied ones. Versions 1 and 2 kept times as epoch milliseconds; version 3 moved them to
 * the floor's one representation (ISO-8601 UTC text, src/store/time.ts). Version 4 adds webhook
 * and chat subscribers (columns only: portable ALTER TABLE … ADD COLUMN).
 */
import type { Migration, MigrationList } from '../store/migrations.ts';

/** `ms` (epoch milliseconds, or NULL) as the floor's time text. */
const iso = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'subscribers, events, outbox',
    scripts: {
      sqlite: `
      -- The store's own secrets (the key of manage-link HMACs).
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE subscribers (
        id TEXT PRIMARY KEY,
        page_id TEXT NOT NULL,
        email TEXT NOT NULL,
        -- The address lower-cased: one subscription per page and address.
        email_key TEXT NOT NULL,
        -- JSON array of the page's monitor ids chosen; [] means all.
        components TEXT NOT NULL DEFAULT '[]',
        state TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'bouncing')),
        -- SHA-256 of the one live confirmation token; null once used.
        confirm_hash TEXT UNIQUE,
        confirm_expires INTEGER,
        -- When the last confirmation mail was sent: at most one an hour per address.
        confirm_sent_at INTEGER,
        -- Permanent (5xx) failures in a row; reset by a delivery.
        bounces INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        confirmed_at INTEGER,
        UNIQUE (page_id, email_key)
      );
      CREATE INDEX subscribers_page ON subscribers (page_id, state);

      -- One row per event and page, with its mail as rendered when it happened.
      CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        page_id TEXT NOT NULL,
        key TEXT NOT NULL,
        mail TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (page_id, key)
      );

      CREATE TABLE outbox (
        subscriber_id TEXT NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
        event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'unknown')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (subscriber_id, event_id)
      );
      CREATE INDEX outbox_due ON outbox (state, next_attempt, event_id);

      -- Since when a page has been missing from the data (deleted pages lose their subscribers
      -- only after a grace period).
      CREATE TABLE page_absence (page_id TEXT PRIMARY KEY, absent_since INTEGER NOT NULL);
    `,
    },
  },
  {
    version: 2,
    description: 'the language of each subscriber',
    scripts: {
      sqlite: `
      -- The language the subscriber reads (a catalog locale such as 'de' or 'pt-BR', the page
      -- variant they subscribed from). NULL, as every row from before has: the page's default.
      ALTER TABLE subscribers ADD COLUMN locale TEXT;
    `,
    },
  },
  {
    version: 3,
    description: 'times as ISO-8601 UTC text',
    // SQLite cannot change a column's type: each table is copied into a new one and replaced.
    rebuildsTables: true,
    scripts: {
      sqlite: `
      CREATE TABLE subscribers_v3 (
        id TEXT PRIMARY KEY,
        page_id TEXT NOT NULL,
        email TEXT NOT NULL,
        -- The address lower-cased: one subscription per page and address.
        email_key TEXT NOT NULL,
        -- JSON array of the page's monitor ids chosen; [] means all.
        components TEXT NOT NULL DEFAULT '[]',
        state TEXT NOT NULL CHECK (state IN ('pending', 'confirmed', 'bouncing')),
        -- SHA-256 of the one live confirmation token; null once used.
        confirm_hash TEXT UNIQUE,
        confirm_expires TEXT,
        -- When the last confirmation mail was sent: at most one an hour per address.
        confirm_sent_at TEXT,
        -- Permanent (5xx) failures in a row; reset by a delivery.
        bounces INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        confirmed_at TEXT,
        -- The language the subscriber reads; NULL: the page's default.
        locale TEXT,
        UNIQUE (page_id, email_key)
      );
      INSERT INTO subscribers_v3 (id, page_id, email, email_key, components, state, confirm_hash, confirm_expires, confirm_sent_at, bounces, created_at, confirmed_at, locale)
        SELECT id, page_id, email, email_key, components, state, confirm_hash, ${iso('confirm_expires')}, ${iso('confirm_sent_at')}, bounces, ${iso('created_at')}, ${iso('confirmed_at')}, locale FROM subscribers;

      CREATE TABLE events_v3 (
        id INTEGER PRIMARY KEY,
        page_id TEXT NOT NULL,
        key TEXT NOT NULL,
        mail TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (page_id, key)
      );
      INSERT INTO events_v3 (id, page_id, key, mail, created_at) SELECT id, page_id, key, mail, ${iso('created_at')} FROM events;

      CREATE TABLE outbox_v3 (
        subscriber_id TEXT NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
        event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'unknown')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (subscriber_id, event_id)
      );
      INSERT INTO outbox_v3 (subscriber_id, event_id, state, attempts, next_attempt, created_at, updated_at)
        SELECT subscriber_id, event_id, state, attempts, ${iso('next_attempt')}, ${iso('created_at')}, ${iso('updated_at')} FROM outbox;

      CREATE TABLE page_absence_v3 (page_id TEXT PRIMARY KEY, absent_since TEXT NOT NULL);
      INSERT INTO page_absence_v3 (page_id, absent_since) SELECT page_id, ${iso('absent_since')} FROM page_absence;

      DROP TABLE outbox;
      DROP TABLE events;
      DROP TABLE subscribers;
      DROP TABLE page_absence;
      ALTER TABLE subscribers_v3 RENAME TO subscribers;
      ALTER TABLE events_v3 RENAME TO events;
      ALTER TABLE outbox_v3 RENAME TO outbox;
      ALTER TABLE page_absence_v3 RENAME TO page_absence;
      CREATE INDEX subscribers_page ON subscribers (page_id, state);
      CREATE INDEX outbox_due ON outbox (state, next_attempt, event_id);
    `,
    },
  },
  {
    version: 4,
    description: 'webhook and chat subscribers',
    scripts: {
      sqlite: `
      -- How a subscriber is reached: 'email' (every row from before), 'webhook' (Statuspage's
      -- payload, signed), or a chat service's incoming webhook ('slack', 'discord', 'teams').
      ALTER TABLE subscribers ADD COLUMN channel TEXT NOT NULL DEFAULT 'email';
      -- The receiver's URL (webhook and chat; NULL for e-mail). Its key, for one subscription per
      -- page and URL, is email_key ('url:' and the URL), so the existing UNIQUE serves both.
      ALTER TABLE subscribers ADD COLUMN endpoint_url TEXT;
      -- The URL's host, lower-cased: deliveries are bounded per host.
      ALTER TABLE subscribers ADD COLUMN endpoint_host TEXT;
      -- The Standard Webhooks signing secret ('whsec_' and base64), shown once; NULL for chat.
      ALTER TABLE subscribers ADD COLUMN signing_secret TEXT;
      -- Optional address told when deliveries have failed for a day and the webhook is paused.
      ALTER TABLE subscribers ADD COLUMN contact_email TEXT;
      -- When deliveries were paused (state 'bouncing': nothing more is sent); NULL otherwise.
      ALTER TABLE subscribers ADD COLUMN paused_at TEXT;
      CREATE INDEX subscribers_endpoint_host ON subscribers (endpoint_host);
    `,
    },
  },
];

export const SUBSCRIBER_MIGRATIONS: MigrationList = { store: 'subscribers', migrations: MIGRATIONS };

/**
 * The subscribers store's schema, one ordered list of migrations; the applied version is SQLite's
 * `PRAGMA user_version`. Append new entries, never edit applied ones.
 */
export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
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
  {
    version: 2,
    sql: `
      -- The language the subscriber reads (a catalog locale such as 'de' or 'pt-BR', the page
      -- variant they subscribed from). NULL, as every row from before has: the page's default.
      ALTER TABLE subscribers ADD COLUMN locale TEXT;
    `,
  },
];

/**
 * The sign-in store's schema (`auth`): sessions of any subject (an operator of the console, a
 * viewer of a private page) and the sign-in throttle's counters. One ordered list for the floor's
 * runner (src/store/migrations.ts), a script per dialect; append new entries, never edit applied ones.
 */
import type { Migration, MigrationList } from '../store/migrations.ts';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, sign-in throttle',
    scripts: {
      sqlite: `
      -- One row per session. The token is never stored: only its SHA-256 (hex), so the store
      -- alone cannot sign anyone in.
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        subject_kind TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        -- Idle expiry moves with use; absolute expiry never does.
        idle_expires_at TEXT NOT NULL,
        absolute_expires_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX sessions_subject ON sessions (subject_kind, subject_id);
      CREATE INDEX sessions_expiry ON sessions (absolute_expires_at);

      -- Failed sign-ins per key (an account, an address, or both): growing delays.
      CREATE TABLE sign_in_throttle (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_failure_at TEXT NOT NULL,
        blocked_until TEXT NOT NULL
      );
    `,
      postgres: `
      CREATE TABLE sessions (
        token_hash text PRIMARY KEY,
        subject_kind text NOT NULL,
        subject_id text NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        idle_expires_at timestamptz NOT NULL,
        absolute_expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE INDEX sessions_subject ON sessions (subject_kind, subject_id);
      CREATE INDEX sessions_expiry ON sessions (absolute_expires_at);

      CREATE TABLE sign_in_throttle (
        key text PRIMARY KEY,
        failures integer NOT NULL,
        last_failure_at timestamptz NOT NULL,
        blocked_until timestamptz NOT NULL
      );
    `,
    },
  },
];

export const AUTH_MIGRATIONS: MigrationList = { store: 'auth', migrations: MIGRATIONS };

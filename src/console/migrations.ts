/**
 * The console's store (`console`): its operators and the audit trail of every change made through
 * the console or the CLI. Sessions and the sign-in throttle are the sign-in store's (src/auth/).
 * One ordered list for the floor's runner, a script per dialect; append, never edit applied ones.
 */
import type { Migration, MigrationList } from '../store/migrations.ts';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'operators, audit trail',
    scripts: {
      sqlite: `
      CREATE TABLE operators (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        -- Lower-cased: one operator per address.
        email_key TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'responder', 'editor', 'admin')),
        -- scrypt (src/auth/password.ts); null until the set-up link is used.
        password_hash TEXT,
        -- SHA-256 of the one live set-up link's token, and its end.
        setup_hash TEXT UNIQUE,
        setup_expires_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE audit (
        id TEXT PRIMARY KEY,
        at TEXT NOT NULL,
        -- 'operator:<id> <email>' or 'cli:<user>'.
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        -- JSON, or null (nothing before a creation, nothing after a removal).
        before_json TEXT,
        after_json TEXT
      );
      CREATE INDEX audit_at ON audit (at);
    `,
      postgres: `
      CREATE TABLE operators (
        id text PRIMARY KEY,
        email text NOT NULL,
        email_key text NOT NULL UNIQUE,
        role text NOT NULL CHECK (role IN ('viewer', 'responder', 'editor', 'admin')),
        password_hash text,
        setup_hash text UNIQUE,
        setup_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );

      CREATE TABLE audit (
        id text PRIMARY KEY,
        at timestamptz NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        target text NOT NULL,
        before_json text,
        after_json text
      );
      CREATE INDEX audit_at ON audit (at);
    `,
    },
  },
];

export const CONSOLE_MIGRATIONS: MigrationList = { store: 'console', migrations: MIGRATIONS };

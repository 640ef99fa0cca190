/**
 * The audiences store's schema (issue 32): who may read a non-public status page. One ordered
 * list for the floor's runner (src/store/migrations.ts); append, never edit an applied entry.
 * Each migration has a script per dialect; times are the floor's ISO text (`timestamptz` on
 * PostgreSQL), JSON is kept as text.
 */
import type { Migration, MigrationList } from '../store/migrations.ts';

const tables = (time: string) => `
  -- The store's own secrets (the key invitation links are signed with).
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  -- One row per non-public page that has an audience; a page without a row stays a 404 for all.
  CREATE TABLE page_access (
    page_id TEXT PRIMARY KEY,
    mode TEXT NOT NULL CHECK (mode IN ('unlisted', 'sign-in-shown')),
    -- scrypt hash (see passphrase.ts), or NULL: no passphrase.
    passphrase_hash TEXT,
    -- JSON array of CIDR ranges ('10.0.0.0/8', '2001:db8::/32').
    cidrs TEXT NOT NULL DEFAULT '[]',
    -- JSON {issuer, clientId, clientSecret, emailDomains[], claim?}, or NULL.
    oidc TEXT,
    updated_at ${time} NOT NULL
  );

  CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    page_id TEXT NOT NULL,
    label TEXT NOT NULL,
    expires_at ${time} NOT NULL,
    revoked_at ${time},
    created_at ${time} NOT NULL
  );
  CREATE INDEX invitations_page ON invitations (page_id);

  -- Which pages a viewer may read, and through which way in. A viewer is the subject
  -- (kind 'viewer') of sessions in the sign-in store (src/auth/session-store.ts).
  CREATE TABLE viewer_grants (
    viewer_id TEXT NOT NULL,
    page_id TEXT NOT NULL,
    via TEXT NOT NULL,
    subject TEXT NOT NULL,
    -- The invitation this grant came through: revoking it ends the grant.
    invitation_id TEXT,
    created_at ${time} NOT NULL,
    PRIMARY KEY (viewer_id, page_id)
  );

  -- Per-viewer feed and calendar addresses: the URL carries the token, the row its SHA-256.
  CREATE TABLE feed_tokens (
    token_hash TEXT PRIMARY KEY,
    page_id TEXT NOT NULL,
    subject TEXT NOT NULL,
    invitation_id TEXT,
    created_at ${time} NOT NULL,
    revoked_at ${time}
  );
  CREATE INDEX feed_tokens_page ON feed_tokens (page_id);

  -- OpenID Connect sign-ins under way: found by the state's SHA-256, used once, short-lived.
  CREATE TABLE oidc_transactions (
    state_hash TEXT PRIMARY KEY,
    page_id TEXT NOT NULL,
    -- SHA-256 of the browser's binding cookie: a callback from another browser is refused.
    browser_hash TEXT NOT NULL,
    code_verifier TEXT NOT NULL,
    nonce TEXT NOT NULL,
    expires_at ${time} NOT NULL,
    used_at ${time}
  );

`;

const viewerOfFeedTokens = `
  ALTER TABLE feed_tokens ADD COLUMN viewer_id TEXT;
  CREATE INDEX feed_tokens_viewer ON feed_tokens (viewer_id, page_id);
`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'page access, invitations, viewer grants, feed tokens, OpenID Connect sign-ins',
    scripts: { sqlite: tables('TEXT'), postgres: tables('timestamptz') },
  },
  {
    version: 2,
    // Removing one viewer (page-access remove-viewer, the console) ends the feed addresses they
    // made too; older rows have no viewer and end with their invitation or revoke-feeds only.
    description: 'feed tokens keep the viewer who made them',
    scripts: { sqlite: viewerOfFeedTokens, postgres: viewerOfFeedTokens },
  },
];

export const AUDIENCE_MIGRATIONS: MigrationList = { store: 'audiences', migrations: MIGRATIONS };

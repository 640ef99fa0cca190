/**
 * The audiences store (docs/private-pages.md): per-page access settings, invitations, what each
 * viewer may read, and feed tokens, on the storage floor (a SQLite file,
 * AUDIENCES_DB, or the schema `audiences` of the PostgreSQL database at DATABASE_URL).
 * Sessions and the sign-in throttle are the sign-in store's (src/auth/). Secrets are kept as
 * hashes (feed tokens, the passphrase); invitation links are
 * signed with the store's own key.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../store/database.ts';
import { newId } from '../store/ids.ts';
import { openMigrated, type StoreLocation } from '../store/location.ts';
import { isStringArray, readRow, type Row } from '../store/rows.ts';
import { storedTime } from '../store/time.ts';
import { AUDIENCE_MIGRATIONS } from './migrations.ts';
import { invitationIdOf, invitationToken, randomToken, tokenHash } from './tokens.ts';

export const ACCESS_MODES = ['unlisted', 'sign-in-shown'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** E-mail domains allowed in (lower-case); empty: any, if `claim` is met. */
  emailDomains: string[];
  /** A claim the ID token must carry with this value (`name=value`), or null. */
  claim: { name: string; value: string } | null;
}

export interface PageAccess {
  pageId: string;
  mode: AccessMode;
  passphraseHash: string | null;
  cidrs: string[];
  oidc: OidcSettings | null;
  updatedAt: number;
}

export interface Invitation {
  id: string;
  pageId: string;
  label: string;
  expiresAt: number;
  revokedAt: number | null;
  createdAt: number;
}

/** How a viewer came in: for the operator, and to end what an invitation opened when it is revoked. */
export const GRANT_WAYS = ['invitation', 'passphrase', 'oidc'] as const;

/** A viewer's grant to a page, as the operator sees it (src/audiences/access-changes.ts). */
export interface ViewerGrant extends GrantSource {
  viewerId: string;
  createdAt: number;
  /** False once its invitation is revoked or expired (the row stays until removed). */
  live: boolean;
}

export interface GrantSource {
  via: (typeof GRANT_WAYS)[number];
  /** The invitation's label, the e-mail address, `passphrase`. */
  subject: string;
  invitationId: string | null;
}


function isOidc(value: unknown): value is OidcSettings {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as Partial<OidcSettings>;
  return typeof o.issuer === 'string' && typeof o.clientId === 'string' && typeof o.clientSecret === 'string' && isStringArray(o.emailDomains)
    && (o.claim === null || (typeof o.claim === 'object' && typeof o.claim?.name === 'string' && typeof o.claim.value === 'string'));
}

function accessOf(row: Row): PageAccess {
  const r = readRow('page_access', row);
  const oidc = r.textOrNull('oidc');
  return {
    pageId: r.text('page_id'),
    mode: r.oneOf('mode', ACCESS_MODES),
    passphraseHash: r.textOrNull('passphrase_hash'),
    cidrs: r.json('cidrs', isStringArray, 'a JSON array of strings'),
    oidc: oidc === null ? null : r.json('oidc', isOidc, 'OpenID Connect settings'),
    updatedAt: r.time('updated_at'),
  };
}

function invitationOf(row: Row): Invitation {
  const r = readRow('invitations', row);
  return { id: r.text('id'), pageId: r.text('page_id'), label: r.text('label'), expiresAt: r.time('expires_at'), revokedAt: r.timeOrNull('revoked_at'), createdAt: r.time('created_at') };
}

/** How long an OpenID Connect sign-in may take, from the button to the callback. */
export const OIDC_TRANSACTION_MS = 10 * 60_000;

export class AudienceStore {
  private readonly db: Database;

  private constructor(db: Database) {
    this.db = db;
  }

  static async open(location: StoreLocation): Promise<AudienceStore> {
    return new AudienceStore(await openMigrated(location, AUDIENCE_MIGRATIONS));
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** The key invitation links are signed with, made on first use. */
  async signingKey(): Promise<string> {
    const fresh = randomBytes(32).toString('base64url');
    await this.db.run(`INSERT INTO meta (key, value) VALUES ('invitation_key', ?) ON CONFLICT (key) DO NOTHING`, fresh);
    const row = await this.db.get(`SELECT value FROM meta WHERE key = 'invitation_key'`);
    return readRow('meta', row ?? {}).text('value');
  }

  async allAccess(): Promise<PageAccess[]> {
    return (await this.db.all('SELECT * FROM page_access ORDER BY page_id')).map(accessOf);
  }

  async access(pageId: string): Promise<PageAccess | null> {
    const row = await this.db.get('SELECT * FROM page_access WHERE page_id = ?', pageId);
    return row ? accessOf(row) : null;
  }

  /** Creates or changes a page's settings; fields not given keep their value (a new page: unlisted, nothing else). */
  async setAccess(pageId: string, change: Partial<Omit<PageAccess, 'pageId' | 'updatedAt'>>, now = Date.now()): Promise<PageAccess> {
    return this.db.transaction(async (tx) => {
      const old = await tx.get('SELECT * FROM page_access WHERE page_id = ?', pageId);
      const current: PageAccess = old ? accessOf(old) : { pageId, mode: 'unlisted', passphraseHash: null, cidrs: [], oidc: null, updatedAt: now };
      const next: PageAccess = { ...current, ...change, pageId, updatedAt: now };
      await tx.run(
        `INSERT INTO page_access (page_id, mode, passphrase_hash, cidrs, oidc, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (page_id) DO UPDATE SET mode = excluded.mode, passphrase_hash = excluded.passphrase_hash, cidrs = excluded.cidrs, oidc = excluded.oidc, updated_at = excluded.updated_at`,
        pageId, next.mode, next.passphraseHash, JSON.stringify(next.cidrs), next.oidc === null ? null : JSON.stringify(next.oidc), storedTime(now),
      );
      // A changed or removed passphrase ends what the old one opened (sessions, and the mails of
      // subscribers who came in by it); so does removing OpenID Connect for its sign-ins.
      if (change.passphraseHash !== undefined && change.passphraseHash !== current.passphraseHash) await tx.run("DELETE FROM viewer_grants WHERE page_id = ? AND via = 'passphrase'", pageId);
      if (change.oidc === null && current.oidc !== null) await tx.run("DELETE FROM viewer_grants WHERE page_id = ? AND via = 'oidc'", pageId);
      return next;
    });
  }

  /** Removes a page's audience: every viewer's grant, feed token and invitation of it goes too. */
  async removeAccess(pageId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { changes } = await tx.run('DELETE FROM page_access WHERE page_id = ?', pageId);
      await tx.run('DELETE FROM viewer_grants WHERE page_id = ?', pageId);
      await tx.run('DELETE FROM feed_tokens WHERE page_id = ?', pageId);
      await tx.run('DELETE FROM invitations WHERE page_id = ?', pageId);
      return changes > 0;
    });
  }

  async invite(pageId: string, label: string, expiresAt: number, now = Date.now()): Promise<{ invitation: Invitation; token: string }> {
    const id = newId('inv');
    await this.db.run('INSERT INTO invitations (id, page_id, label, expires_at, revoked_at, created_at) VALUES (?, ?, ?, ?, NULL, ?)', id, pageId, label, storedTime(expiresAt), storedTime(now));
    return { invitation: { id, pageId, label, expiresAt, revokedAt: null, createdAt: now }, token: invitationToken(await this.signingKey(), id) };
  }

  async invitations(pageId: string): Promise<Invitation[]> {
    return (await this.db.all('SELECT * FROM invitations WHERE page_id = ? ORDER BY created_at, id', pageId)).map(invitationOf);
  }

  async invitation(id: string): Promise<Invitation | null> {
    const row = await this.db.get('SELECT * FROM invitations WHERE id = ?', id);
    return row ? invitationOf(row) : null;
  }

  /** Revokes one invitation: the grants and feed addresses it opened stop at once. */
  async revokeInvitation(id: string, now = Date.now()): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { changes } = await tx.run('UPDATE invitations SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', storedTime(now), id);
      await tx.run('DELETE FROM viewer_grants WHERE invitation_id = ?', id);
      await tx.run('UPDATE feed_tokens SET revoked_at = ? WHERE invitation_id = ? AND revoked_at IS NULL', storedTime(now), id);
      return changes > 0;
    });
  }

  /** The invitation a link's token opens now: signed right, known, not revoked, not expired. */
  async openInvitation(token: string, now = Date.now()): Promise<Invitation | null> {
    const id = invitationIdOf(await this.signingKey(), token);
    if (id === null) return null;
    const row = await this.db.get('SELECT * FROM invitations WHERE id = ? AND revoked_at IS NULL AND expires_at > ?', id, storedTime(now));
    return row ? invitationOf(row) : null;
  }

  /** Lets a viewer (the subject of their sessions) read a page, through `source`. */
  async grant(viewerId: string, pageId: string, source: GrantSource, now = Date.now()): Promise<void> {
    await this.db.run(
      `INSERT INTO viewer_grants (viewer_id, page_id, via, subject, invitation_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (viewer_id, page_id) DO UPDATE SET via = excluded.via, subject = excluded.subject, invitation_id = excluded.invitation_id, created_at = excluded.created_at`,
      viewerId, pageId, source.via, source.subject, source.invitationId, storedTime(now),
    );
  }

  /** How a viewer may read a page now, or null (never granted, removed, or its invitation revoked or expired). */
  async grantOf(viewerId: string, pageId: string, now = Date.now()): Promise<GrantSource | null> {
    const row = await this.db.get(
      `SELECT g.via, g.subject, g.invitation_id FROM viewer_grants g LEFT JOIN invitations i ON i.id = g.invitation_id
       WHERE g.viewer_id = ? AND g.page_id = ? AND (g.invitation_id IS NULL OR (i.revoked_at IS NULL AND i.expires_at > ?))`,
      viewerId, pageId, storedTime(now),
    );
    if (!row) return null;
    const r = readRow('viewer_grants', row);
    return { via: r.oneOf('via', GRANT_WAYS), subject: r.text('subject'), invitationId: r.textOrNull('invitation_id') };
  }

  /**
   * Ends one viewer's access to a page, and the feed addresses they made of it (their sessions stay
   * signed in, to nothing of it; their subscriptions get no more mail, as liveViewers decides).
   */
  async removeGrant(viewerId: string, pageId: string, now = Date.now()): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { changes } = await tx.run('DELETE FROM viewer_grants WHERE viewer_id = ? AND page_id = ?', viewerId, pageId);
      await tx.run('UPDATE feed_tokens SET revoked_at = ? WHERE viewer_id = ? AND page_id = ? AND revoked_at IS NULL', storedTime(now), viewerId, pageId);
      return changes > 0;
    });
  }

  /** Every viewer granted the page, oldest first, with whether the grant is live now. */
  async viewers(pageId: string, now = Date.now()): Promise<ViewerGrant[]> {
    const rows = await this.db.all(
      `SELECT g.viewer_id, g.via, g.subject, g.invitation_id, g.created_at, i.revoked_at, i.expires_at FROM viewer_grants g LEFT JOIN invitations i ON i.id = g.invitation_id
       WHERE g.page_id = ? ORDER BY g.created_at, g.viewer_id`,
      pageId,
    );
    return rows.map((row) => {
      const r = readRow('viewer_grants', row);
      const invitationId = r.textOrNull('invitation_id');
      const expiresAt = r.timeOrNull('expires_at');
      const live = invitationId === null || (r.timeOrNull('revoked_at') === null && expiresAt !== null && expiresAt > now);
      return { viewerId: r.text('viewer_id'), via: r.oneOf('via', GRANT_WAYS), subject: r.text('subject'), invitationId, createdAt: r.time('created_at'), live };
    });
  }

  /**
   * Those of `viewerIds` whose grant to the page is live now (as grantOf decides): the subscribers
   * of a page with an audience an event is mailed to. No settings for the page (made public, or
   * its audience removed): none.
   */
  async liveViewers(pageId: string, viewerIds: readonly string[], now = Date.now()): Promise<Set<string>> {
    const live = new Set<string>();
    if (viewerIds.length === 0 || !(await this.access(pageId))) return live;
    for (const viewerId of viewerIds) if (await this.grantOf(viewerId, pageId, now)) live.add(viewerId);
    return live;
  }

  /** A new feed address token for a viewer of a page (shown once; the store keeps its hash). */
  async newFeedToken(pageId: string, source: GrantSource, now = Date.now(), viewerId: string | null = null): Promise<string> {
    const token = randomToken();
    await this.db.run('INSERT INTO feed_tokens (token_hash, page_id, subject, invitation_id, created_at, revoked_at, viewer_id) VALUES (?, ?, ?, ?, ?, NULL, ?)', tokenHash(token), pageId, source.subject, source.invitationId, storedTime(now), viewerId);
    return token;
  }

  /** The page a feed token reads now, or null (unknown, revoked, its invitation revoked or expired). */
  async feedTokenPage(token: string, now = Date.now()): Promise<string | null> {
    const row = await this.db.get(
      `SELECT f.page_id FROM feed_tokens f LEFT JOIN invitations i ON i.id = f.invitation_id
       WHERE f.token_hash = ? AND f.revoked_at IS NULL AND (f.invitation_id IS NULL OR (i.revoked_at IS NULL AND i.expires_at > ?))`,
      tokenHash(token), storedTime(now),
    );
    return row ? readRow('feed_tokens', row).text('page_id') : null;
  }

  async revokeFeedToken(token: string, now = Date.now()): Promise<boolean> {
    const { changes } = await this.db.run('UPDATE feed_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL', storedTime(now), tokenHash(token));
    return changes > 0;
  }

  /** Revokes every feed address of a page (or of one subject on it). */
  async revokeFeedTokens(pageId: string, subject: string | null, now = Date.now()): Promise<number> {
    const { changes } = subject === null
      ? await this.db.run('UPDATE feed_tokens SET revoked_at = ? WHERE page_id = ? AND revoked_at IS NULL', storedTime(now), pageId)
      : await this.db.run('UPDATE feed_tokens SET revoked_at = ? WHERE page_id = ? AND subject = ? AND revoked_at IS NULL', storedTime(now), pageId, subject);
    return changes;
  }

  /** Notes an OpenID Connect sign-in started (valid 10 minutes, usable once). */
  async startOidc(state: string, pageId: string, browser: string, codeVerifier: string, nonce: string, now = Date.now()): Promise<void> {
    await this.db.run('DELETE FROM oidc_transactions WHERE expires_at < ?', storedTime(now));
    await this.db.run(
      'INSERT INTO oidc_transactions (state_hash, page_id, browser_hash, code_verifier, nonce, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
      tokenHash(state), pageId, tokenHash(browser), codeVerifier, nonce, storedTime(now + OIDC_TRANSACTION_MS),
    );
  }

  /**
   * Takes the sign-in a callback's state names, once: null when unknown, expired, used already
   * (a replay), or started in another browser.
   */
  async takeOidc(state: string, browser: string | null, now = Date.now()): Promise<{ pageId: string; codeVerifier: string; nonce: string } | null> {
    if (browser === null) return null;
    const row = await this.db.get(
      'UPDATE oidc_transactions SET used_at = ? WHERE state_hash = ? AND browser_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING page_id, code_verifier, nonce',
      storedTime(now), tokenHash(state), tokenHash(browser), storedTime(now),
    );
    if (!row) return null;
    const r = readRow('oidc_transactions', row);
    return { pageId: r.text('page_id'), codeVerifier: r.text('code_verifier'), nonce: r.text('nonce') };
  }
}

/**
 * Sessions of anyone who signs in: an operator of the console or a viewer of a private page (the
 * `subject`). A session is a random 256-bit token handed to the browser in a cookie
 * (session-cookie.ts); the store keeps only its SHA-256, the subject, and two expiries: idle
 * (moved forward by use) and absolute (never moved). Revoking one session signs out one browser;
 * revoking all of a subject is "sign out everywhere" (and what a password change does).
 *
 * Built on the storage floor: portable SQL, ISO times, strict rows; the writes that depend on a
 * row's state are guarded in their WHERE, so several replicas on one PostgreSQL database agree.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../store/database.ts';
import { openMigrated, type StoreLocation } from '../store/location.ts';
import { readRow, type Row } from '../store/rows.ts';
import { storedTime } from '../store/time.ts';
import { AUTH_MIGRATIONS } from './migrations.ts';

/** Who a session belongs to: `kind` names the population (`operator`, `viewer`), `id` one member. */
export interface Subject {
  kind: string;
  id: string;
}

export interface Session {
  subject: Subject;
  createdAt: number;
  lastSeenAt: number;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
}

export interface SessionPolicy {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however used. */
  absoluteMs: number;
  /** last_seen is written at most this often per session (one write per request would be wasteful). */
  touchEveryMs: number;
}

/** Defaults: 30 minutes idle, 12 hours in all, touched at most once a minute. */
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000, touchEveryMs: 60_000 };

const SUBJECT_KIND = /^[a-z][a-z0-9-]{1,30}$/;
/** Tokens are 32 random bytes in base64url: exactly 43 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function isSessionTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_SHAPE.test(value);
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opens the sign-in store at `location` and brings its schema up to date. */
export async function openAuthDatabase(location: StoreLocation): Promise<Database> {
  return openMigrated(location, AUTH_MIGRATIONS);
}

function session(row: Row): Session {
  const read = readRow('sessions', row);
  return {
    subject: { kind: read.text('subject_kind'), id: read.text('subject_id') },
    createdAt: read.time('created_at'),
    lastSeenAt: read.time('last_seen_at'),
    idleExpiresAt: read.time('idle_expires_at'),
    absoluteExpiresAt: read.time('absolute_expires_at'),
  };
}

const COLUMNS = 'subject_kind, subject_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at';

export class SessionStore {
  private readonly db: Database;
  readonly policy: SessionPolicy;

  constructor(db: Database, policy: SessionPolicy = DEFAULT_SESSION_POLICY) {
    if (policy.idleMs <= 0 || policy.absoluteMs < policy.idleMs) throw new RangeError('session policy: idle must be positive and at most the absolute lifetime');
    this.db = db;
    this.policy = policy;
  }

  /** Starts a session for `subject`; the token is returned once and never stored. */
  async create(subject: Subject, now: number): Promise<{ token: string; session: Session }> {
    if (!SUBJECT_KIND.test(subject.kind)) throw new TypeError(`session subject kind ${JSON.stringify(subject.kind)}: expected lower-case letters, digits or -`);
    if (subject.id === '' || subject.id.length > 200) throw new TypeError('session subject id: expected 1 to 200 characters');
    const token = randomBytes(32).toString('base64url');
    const created: Session = { subject: { ...subject }, createdAt: now, lastSeenAt: now, idleExpiresAt: Math.min(now + this.policy.idleMs, now + this.policy.absoluteMs), absoluteExpiresAt: now + this.policy.absoluteMs };
    await this.db.run(
      `INSERT INTO sessions (token_hash, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      hashSessionToken(token),
      subject.kind,
      subject.id,
      storedTime(now),
      storedTime(now),
      storedTime(created.idleExpiresAt),
      storedTime(created.absoluteExpiresAt),
    );
    return { token, session: created };
  }

  /**
   * The live session a token opens, or null (unknown, revoked, idle or past its absolute end).
   * Use moves the idle expiry forward (never past the absolute one), written at most once per
   * `touchEveryMs`.
   */
  async lookup(token: unknown, now: number): Promise<Session | null> {
    if (!isSessionTokenShaped(token)) return null;
    const hash = hashSessionToken(token);
    const row = await this.db.get(`SELECT ${COLUMNS} FROM sessions WHERE token_hash = ? AND revoked_at IS NULL`, hash);
    if (!row) return null;
    const found = session(row);
    if (now >= found.idleExpiresAt || now >= found.absoluteExpiresAt) return null;
    if (now - found.lastSeenAt >= this.policy.touchEveryMs) {
      const idleExpiresAt = Math.min(now + this.policy.idleMs, found.absoluteExpiresAt);
      // Guarded: a revoke or a later touch in between wins.
      await this.db.run(
        'UPDATE sessions SET last_seen_at = ?, idle_expires_at = ? WHERE token_hash = ? AND revoked_at IS NULL AND last_seen_at < ?',
        storedTime(now),
        storedTime(idleExpiresAt),
        hash,
        storedTime(now),
      );
      return { ...found, lastSeenAt: now, idleExpiresAt };
    }
    return found;
  }

  /** Ends the session of `token` (sign out). True when a live session ended. */
  async revoke(token: unknown, now: number): Promise<boolean> {
    if (!isSessionTokenShaped(token)) return false;
    const result = await this.db.run('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL', storedTime(now), hashSessionToken(token));
    return result.changes > 0;
  }

  /** Ends every session of `subject` (sign out everywhere); resolves to how many ended. */
  async revokeAll(subject: Subject, now: number): Promise<number> {
    const result = await this.db.run('UPDATE sessions SET revoked_at = ? WHERE subject_kind = ? AND subject_id = ? AND revoked_at IS NULL', storedTime(now), subject.kind, subject.id);
    return result.changes;
  }

  /** Live sessions of `subject`, newest first (for "signed in on N devices"). */
  async liveSessions(subject: Subject, now: number): Promise<Session[]> {
    const at = storedTime(now);
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM sessions WHERE subject_kind = ? AND subject_id = ? AND revoked_at IS NULL AND idle_expires_at > ? AND absolute_expires_at > ? ORDER BY created_at DESC`,
      subject.kind,
      subject.id,
      at,
      at,
    );
    return rows.map(session);
  }

  /** Deletes sessions that ended (expired or revoked) before `before`; resolves to how many. */
  async purge(before: number): Promise<number> {
    const at = storedTime(before);
    const result = await this.db.run('DELETE FROM sessions WHERE absolute_expires_at < ? OR idle_expires_at < ? OR revoked_at < ?', at, at, at);
    return result.changes;
  }
}

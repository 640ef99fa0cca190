/**
 * The console's store: operators (an e-mail address, a role, a scrypt password set through a
 * one-time set-up link whose token is stored as its SHA-256 only) and the audit trail. A SQLite
 * file `console.db` beside the subscribers' file, or the PostgreSQL schema `console`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Database } from '../store/database.ts';
import { newId } from '../store/ids.ts';
import { openMigrated, storeLocation, type StoreLocation } from '../store/location.ts';
import { readRow, type Row } from '../store/rows.ts';
import { storedTime } from '../store/time.ts';
import { CONSOLE_MIGRATIONS } from './migrations.ts';
import { operatorChangeRefusal, type OperatorChange, type OperatorChangeRefusal } from './operator-rules.ts';
import { ROLES, type Role } from './roles.ts';
import { PasskeyStore } from './passkey-store.ts';
import { BrandingDrafts, StoredBrandingHistory } from './theming-store.ts';

/** Set-up links live a day. */
export const SETUP_TTL_MS = 24 * 3_600_000;

export interface Operator {
  id: string;
  email: string;
  role: Role;
  hasPassword: boolean;
  createdAt: number;
}

export interface AuditEntry {
  id: string;
  at: number;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

export function consoleDbPath(subscribersDb: string): string {
  return subscribersDb === ':memory:' ? ':memory:' : join(dirname(subscribersDb), 'console.db');
}

export function consoleLocation(databaseUrl: string | null | undefined, subscribersDb: string): StoreLocation {
  return storeLocation(databaseUrl, consoleDbPath(subscribersDb));
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const OPERATOR_COLUMNS = 'id, email, role, password_hash, created_at';

function operator(row: Row): Operator {
  const read = readRow('operators', row);
  return { id: read.text('id'), email: read.text('email'), role: read.oneOf('role', ROLES), hasPassword: read.textOrNull('password_hash') !== null, createdAt: read.time('created_at') };
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What a removal or a role change did: the operator before and after (null after a removal), or why not. */
export type OperatorChangeResult = { ok: true; before: Operator; after: Operator | null } | { ok: false; refusal: OperatorChangeRefusal };

export class OperatorExistsError extends Error {
  override name = 'OperatorExistsError';
}

export class ConsoleStore {
  private readonly db: Database;

  private constructor(db: Database) {
    this.db = db;
  }

  static async open(location: StoreLocation): Promise<ConsoleStore> {
    return new ConsoleStore(await openMigrated(location, CONSOLE_MIGRATIONS));
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** The theming screen's undo history and drafts (theming-store.ts), on this store's database. */
  theming(): { history: StoredBrandingHistory; drafts: BrandingDrafts } {
    return { history: new StoredBrandingHistory(this.db), drafts: new BrandingDrafts(this.db) };
  }

  /** Operators' passkeys and their challenges (passkey-store.ts), on this store's database. */
  passkeys(): PasskeyStore {
    return new PasskeyStore(this.db);
  }

  /** A new operator without a password, and the token of their set-up link. */
  async addOperator(email: string, role: Role, now: number): Promise<{ operator: Operator; setupToken: string }> {
    const token = randomBytes(32).toString('base64url');
    const id = newId('op');
    const inserted = await this.db.get(
      `INSERT INTO operators (id, email, email_key, role, password_hash, setup_hash, setup_expires_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?) ON CONFLICT (email_key) DO NOTHING RETURNING ${OPERATOR_COLUMNS}`,
      id, email, email.toLowerCase(), role, hash(token), storedTime(now + SETUP_TTL_MS), storedTime(now), storedTime(now),
    );
    if (!inserted) throw new OperatorExistsError(`an operator ${email} exists already`);
    return { operator: operator(inserted), setupToken: token };
  }

  /** A fresh set-up link for an existing operator (a forgotten password); the old link ends. */
  async renewSetup(email: string, now: number): Promise<string | null> {
    const token = randomBytes(32).toString('base64url');
    const result = await this.db.run('UPDATE operators SET setup_hash = ?, setup_expires_at = ?, updated_at = ? WHERE email_key = ?', hash(token), storedTime(now + SETUP_TTL_MS), storedTime(now), email.toLowerCase());
    return result.changes > 0 ? token : null;
  }

  /** The operator a live set-up token names, or null. */
  async setupOperator(token: string, now: number): Promise<Operator | null> {
    const row = await this.db.get(`SELECT ${OPERATOR_COLUMNS} FROM operators WHERE setup_hash = ? AND setup_expires_at > ?`, hash(token), storedTime(now));
    return row ? operator(row) : null;
  }

  /** Sets the password through a set-up token, which it uses up (guarded: one use). */
  async completeSetup(token: string, passwordHash: string, now: number): Promise<Operator | null> {
    const row = await this.db.get(
      `UPDATE operators SET password_hash = ?, setup_hash = NULL, setup_expires_at = NULL, updated_at = ? WHERE setup_hash = ? AND setup_expires_at > ? RETURNING ${OPERATOR_COLUMNS}`,
      passwordHash, storedTime(now), hash(token), storedTime(now),
    );
    return row ? operator(row) : null;
  }

  /** The operator of an address with their password hash (for sign-in), or null. */
  async credentials(email: string): Promise<{ operator: Operator; passwordHash: string | null } | null> {
    const row = await this.db.get(`SELECT ${OPERATOR_COLUMNS} FROM operators WHERE email_key = ?`, email.trim().toLowerCase());
    return row ? { operator: operator(row), passwordHash: readRow('operators', row).textOrNull('password_hash') } : null;
  }

  async operator(id: string): Promise<Operator | null> {
    const row = await this.db.get(`SELECT ${OPERATOR_COLUMNS} FROM operators WHERE id = ?`, id);
    return row ? operator(row) : null;
  }

  async operators(): Promise<Operator[]> {
    return (await this.db.all(`SELECT ${OPERATOR_COLUMNS} FROM operators ORDER BY email_key`)).map(operator);
  }

  /**
   * Removes an operator or changes their role, unless it would leave no admin. In one transaction
   * that first locks the admins' rows on PostgreSQL (SQLite's write transaction already runs alone),
   * so two admins demoting each other at once cannot both succeed.
   */
  async changeOperator(id: string, change: OperatorChange, now: number): Promise<OperatorChangeResult> {
    return this.db.transaction(async (tx) => {
      if (this.db.dialect === 'postgres') await tx.all("SELECT id FROM operators WHERE role = 'admin' ORDER BY id FOR UPDATE");
      const everyone = (await tx.all(`SELECT ${OPERATOR_COLUMNS} FROM operators`)).map(operator);
      const refusal = operatorChangeRefusal(everyone, id, change);
      const before = everyone.find((candidate) => candidate.id === id);
      if (refusal || !before) return { ok: false, refusal: refusal ?? 'not-found' };
      if (change.kind === 'remove') {
        await tx.run('DELETE FROM operators WHERE id = ?', id);
        return { ok: true, before, after: null };
      }
      const row = await tx.get(`UPDATE operators SET role = ?, updated_at = ? WHERE id = ? RETURNING ${OPERATOR_COLUMNS}`, change.role, storedTime(now), id);
      return { ok: true, before, after: row ? operator(row) : null };
    });
  }

  async record(entry: { actor: string; action: string; target: string; before?: unknown; after?: unknown }, now: number): Promise<void> {
    const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
    await this.db.run('INSERT INTO audit (id, at, actor, action, target, before_json, after_json) VALUES (?, ?, ?, ?, ?, ?, ?)', newId('aud'), storedTime(now), entry.actor, entry.action, entry.target, json(entry.before), json(entry.after));
  }

  /** The newest `limit` entries, newest first. */
  async audit(limit = 100): Promise<AuditEntry[]> {
    const rows = await this.db.all('SELECT id, at, actor, action, target, before_json, after_json FROM audit ORDER BY at DESC, id DESC LIMIT ?', Math.max(1, Math.min(limit, 10_000)));
    return rows.map((row) => {
      const read = readRow('audit', row);
      return { id: read.text('id'), at: read.time('at'), actor: read.text('actor'), action: read.text('action'), target: read.text('target'), before: parseJson(read.textOrNull('before_json')), after: parseJson(read.textOrNull('after_json')) };
    });
  }
}

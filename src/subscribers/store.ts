/**
 * The subscribers store: one SQLite file of its own (SUBSCRIBERS_DB), created 0600, holding
 * subscribers, the events found in the data and the durable outbox of (subscriber, event) mails.
 * node:sqlite is synchronous; the store lives on the subscriptions thread, never on the thread
 * that answers visitors.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { MIGRATIONS } from './migrations.ts';
import { hashToken, newId, newToken } from './tokens.ts';

export const SUBSCRIBER_STATES = ['pending', 'confirmed', 'bouncing'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];
export const OUTBOX_STATES = ['pending', 'sending', 'sent', 'failed', 'unknown'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** Confirmation links live 48 hours; one confirmation mail per address and hour. */
export const CONFIRM_TTL_MS = 48 * 3_600_000;
export const CONFIRM_INTERVAL_MS = 3_600_000;
/** Permanent failures in a row after which an address is bouncing and gets nothing more. */
export const BOUNCE_LIMIT = 3;

export interface Subscriber {
  id: string;
  pageId: string;
  email: string;
  components: string[];
  state: SubscriberState;
  createdAt: number;
  /** The language asked for (a locale code); null: the page's default (rows from before it was kept). */
  locale: string | null;
}

export interface DueMail {
  subscriberId: string;
  eventId: number;
  email: string;
  /** The subscriber's language (null: the page's default). */
  locale: string | null;
  mail: string;
  attempts: number;
}

export interface StoreStats {
  subscribers: Record<SubscriberState, number>;
  outbox: Record<OutboxState, number>;
  /** Created time of the oldest mail still waiting (pending or sending), or null. */
  oldestWaiting: number | null;
}

type Row = Record<string, SQLInputValue>;

function text(row: Row, name: string): string {
  const value = row[name];
  return typeof value === 'string' ? value : String(value ?? '');
}

function num(row: Row, name: string): number {
  return Number(row[name] ?? 0);
}

function components(raw: string): string[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function subscriber(row: Row): Subscriber {
  return {
    id: text(row, 'id'),
    pageId: text(row, 'page_id'),
    email: text(row, 'email'),
    components: components(text(row, 'components')),
    state: text(row, 'state') as SubscriberState,
    createdAt: num(row, 'created_at'),
    locale: typeof row.locale === 'string' ? row.locale : null,
  };
}

/** Creates the file 0600 before SQLite opens it (SQLite gives its -wal and -shm the same mode). */
function createPrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

export class SubscriberStore {
  private readonly db: DatabaseSync;
  private key: string | null = null;

  constructor(path: string) {
    if (path !== ':memory:') createPrivateFile(path);
    this.db = new DatabaseSync(path, { enableForeignKeyConstraints: true });
    this.db.exec('PRAGMA busy_timeout = 5000');
    if (path !== ':memory:') {
      // WAL lets the operators' script read and remove while Porchlight runs.
      this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec('PRAGMA synchronous = NORMAL');
    }
    this.migrate();
  }

  private migrate(): void {
    const row = this.db.prepare('PRAGMA user_version').get() as Row | undefined;
    const current = num(row ?? {}, 'user_version');
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      this.transaction(() => {
        this.db.exec(migration.sql);
        this.db.exec(`PRAGMA user_version = ${migration.version}`);
      });
    }
  }

  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** The key of manage-link HMACs, made once per store. */
  secret(): string {
    if (this.key) return this.key;
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'manage-key'").get() as Row | undefined;
    if (row) return (this.key = text(row, 'value'));
    const value = newToken();
    this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('manage-key', ?)").run(value);
    return this.secret();
  }

  /** The data the event feed compared against last (see feed-baseline.ts), as it was saved. */
  readFeedBaseline(): string | null {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'feed-baseline'").get() as Row | undefined;
    return row ? text(row, 'value') : null;
  }

  writeFeedBaseline(value: string): void {
    this.db.prepare("INSERT INTO meta (key, value) VALUES ('feed-baseline', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(value);
  }

  /**
   * A subscribe request. Returns the confirmation token to mail, or null when nothing may be
   * sent (already confirmed, or a confirmation went out less than an hour ago). The caller's
   * answer to the visitor is the same either way. A pending request takes the newest `locale`;
   * a confirmed subscriber's language is not changed by someone else's form post.
   */
  subscribe(pageId: string, email: { address: string; key: string }, chosen: readonly string[], now: number, locale: string | null = null): { id: string; token: string } | null {
    return this.transaction(() => {
      const existing = this.db.prepare('SELECT * FROM subscribers WHERE page_id = ? AND email_key = ?').get(pageId, email.key) as Row | undefined;
      const token = newToken();
      if (!existing) {
        const id = newId();
        this.db
          .prepare(`INSERT INTO subscribers (id, page_id, email, email_key, components, state, confirm_hash, confirm_expires, confirm_sent_at, created_at, locale)
                    VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`)
          .run(id, pageId, email.address, email.key, JSON.stringify(chosen), hashToken(token), now + CONFIRM_TTL_MS, now, now, locale);
        return { id, token };
      }
      if (text(existing, 'state') !== 'pending') return null;
      const id = text(existing, 'id');
      const lastSent = existing.confirm_sent_at === null ? null : num(existing, 'confirm_sent_at');
      if (lastSent !== null && now - lastSent < CONFIRM_INTERVAL_MS) return null;
      this.db
        .prepare('UPDATE subscribers SET components = ?, confirm_hash = ?, confirm_expires = ?, confirm_sent_at = ?, locale = ? WHERE id = ?')
        .run(JSON.stringify(chosen), hashToken(token), now + CONFIRM_TTL_MS, now, locale, id);
      return { id, token };
    });
  }

  /** A confirmation mail that could not be sent does not count against the hourly limit. */
  confirmationNotSent(id: string): void {
    this.db.prepare("UPDATE subscribers SET confirm_sent_at = NULL WHERE id = ? AND state = 'pending'").run(id);
  }

  /** Whether a confirmation token is live (for the page with the button). */
  confirmable(token: string, now: number): Subscriber | null {
    const row = this.db.prepare("SELECT * FROM subscribers WHERE confirm_hash = ? AND state = 'pending' AND confirm_expires > ?").get(hashToken(token), now) as Row | undefined;
    return row ? subscriber(row) : null;
  }

  /** Uses a confirmation token (once): the subscriber confirmed, or null. */
  confirm(token: string, now: number): Subscriber | null {
    return this.transaction(() => {
      const found = this.confirmable(token, now);
      if (!found) return null;
      this.db.prepare("UPDATE subscribers SET state = 'confirmed', confirm_hash = NULL, confirm_expires = NULL, confirmed_at = ? WHERE id = ?").run(now, found.id);
      return { ...found, state: 'confirmed' };
    });
  }

  get(id: string): Subscriber | null {
    const row = this.db.prepare('SELECT * FROM subscribers WHERE id = ?').get(id) as Row | undefined;
    return row ? subscriber(row) : null;
  }

  setComponents(id: string, chosen: readonly string[]): void {
    this.db.prepare('UPDATE subscribers SET components = ? WHERE id = ?').run(JSON.stringify(chosen), id);
  }

  /** Deletes the address and its waiting mails. Returns whether there was one. */
  remove(id: string): boolean {
    return Number(this.db.prepare('DELETE FROM subscribers WHERE id = ?').run(id).changes) > 0;
  }

  /** Unconfirmed requests past their link's expiry are deleted. */
  expirePending(now: number): number {
    return Number(this.db.prepare("DELETE FROM subscribers WHERE state = 'pending' AND confirm_expires <= ?").run(now).changes);
  }

  /** The languages a page's confirmed subscribers read (null: the page's default), each once. */
  subscriberLocales(pageId: string): (string | null)[] {
    return (this.db.prepare("SELECT DISTINCT locale FROM subscribers WHERE page_id = ? AND state = 'confirmed' ORDER BY locale").all(pageId) as Row[]).map((row) =>
      typeof row.locale === 'string' ? row.locale : null,
    );
  }

  /**
   * Records an event for a page and queues its mail for each confirmed subscriber who chose one
   * of `monitorIds` (or everything), in one transaction: an event is recorded once, whatever
   * happens later, and a (subscriber, event) pair once. Returns the mails queued (0 when the
   * event was already recorded).
   */
  recordEvent(pageId: string, key: string, mail: string, monitorIds: ReadonlySet<string>, now: number): number {
    return this.transaction(() => {
      const inserted = this.db.prepare('INSERT OR IGNORE INTO events (page_id, key, mail, created_at) VALUES (?, ?, ?, ?)').run(pageId, key, mail, now);
      if (Number(inserted.changes) === 0) return 0;
      const eventId = Number(inserted.lastInsertRowid);
      const rows = this.db.prepare("SELECT id, components FROM subscribers WHERE page_id = ? AND state = 'confirmed'").all(pageId) as Row[];
      const insert = this.db.prepare("INSERT OR IGNORE INTO outbox (subscriber_id, event_id, state, attempts, next_attempt, created_at, updated_at) VALUES (?, ?, 'pending', 0, ?, ?, ?)");
      let queued = 0;
      for (const row of rows) {
        const chosen = components(text(row, 'components'));
        if (chosen.length > 0 && !chosen.some((id) => monitorIds.has(id))) continue;
        insert.run(text(row, 'id'), eventId, now, now, now);
        queued += 1;
      }
      return queued;
    });
  }

  /** Claims up to `limit` due mails: they are `sending` until marked, so none goes out twice. */
  claimDue(now: number, limit: number): DueMail[] {
    return this.transaction(() => {
      const rows = this.db
        .prepare(`SELECT o.subscriber_id, o.event_id, o.attempts, s.email, s.locale, s.state AS subscriber_state, e.mail
                  FROM outbox o JOIN subscribers s ON s.id = o.subscriber_id JOIN events e ON e.id = o.event_id
                  WHERE o.state = 'pending' AND o.next_attempt <= ? ORDER BY o.next_attempt, o.event_id LIMIT ?`)
        .all(now, limit) as Row[];
      const claim = this.db.prepare("UPDATE outbox SET state = ?, attempts = attempts + 1, updated_at = ? WHERE subscriber_id = ? AND event_id = ?");
      const due: DueMail[] = [];
      for (const row of rows) {
        // A subscriber who started bouncing after the mail was queued gets nothing more.
        const live = text(row, 'subscriber_state') === 'confirmed';
        claim.run(live ? 'sending' : 'failed', now, text(row, 'subscriber_id'), num(row, 'event_id'));
        if (live) due.push({ subscriberId: text(row, 'subscriber_id'), eventId: num(row, 'event_id'), email: text(row, 'email'), locale: typeof row.locale === 'string' ? row.locale : null, mail: text(row, 'mail'), attempts: num(row, 'attempts') + 1 });
      }
      return due;
    });
  }

  markSent(mail: Pick<DueMail, 'subscriberId' | 'eventId'>, now: number): void {
    this.transaction(() => {
      this.db.prepare("UPDATE outbox SET state = 'sent', updated_at = ? WHERE subscriber_id = ? AND event_id = ?").run(now, mail.subscriberId, mail.eventId);
      this.db.prepare('UPDATE subscribers SET bounces = 0 WHERE id = ?').run(mail.subscriberId);
    });
  }

  /** A temporary failure (SMTP down, 4xx): the mail waits until `nextAttempt`. */
  markRetry(mail: Pick<DueMail, 'subscriberId' | 'eventId'>, nextAttempt: number, now: number): void {
    this.db.prepare("UPDATE outbox SET state = 'pending', next_attempt = ?, updated_at = ? WHERE subscriber_id = ? AND event_id = ?").run(nextAttempt, now, mail.subscriberId, mail.eventId);
  }

  /** A permanent failure (5xx to RCPT TO): this mail is given up; repeated ones mark the address bouncing. */
  markFailed(mail: Pick<DueMail, 'subscriberId' | 'eventId'>, now: number, bounce = true): void {
    this.transaction(() => {
      this.db.prepare("UPDATE outbox SET state = 'failed', updated_at = ? WHERE subscriber_id = ? AND event_id = ?").run(now, mail.subscriberId, mail.eventId);
      // A mail given up after retries (the server, not the address) does not count as a bounce.
      if (bounce) this.db.prepare("UPDATE subscribers SET bounces = bounces + 1, state = CASE WHEN bounces + 1 >= ? THEN 'bouncing' ELSE state END WHERE id = ?").run(BOUNCE_LIMIT, mail.subscriberId);
    });
  }

  /**
   * After a crash, mails that were being handed to SMTP may or may not have left: they are
   * marked `unknown` and never sent again (at most once), and counted for the operator.
   */
  recoverInFlight(now: number): number {
    return Number(this.db.prepare("UPDATE outbox SET state = 'unknown', updated_at = ? WHERE state = 'sending'").run(now).changes);
  }

  /** The earliest moment a pending mail is due, or null when none waits. */
  nextDue(): number | null {
    const row = this.db.prepare("SELECT MIN(next_attempt) AS next FROM outbox WHERE state = 'pending'").get() as Row | undefined;
    return row?.next === null || row?.next === undefined ? null : num(row, 'next');
  }

  /**
   * Pages missing from the data: subscribers of a page absent since more than `graceMs` are
   * deleted. Called only with successfully loaded data, so an API error never deletes anyone.
   */
  notePages(present: ReadonlySet<string>, now: number, graceMs: number): number {
    return this.transaction(() => {
      const known = (this.db.prepare('SELECT DISTINCT page_id FROM subscribers').all() as Row[]).map((row) => text(row, 'page_id'));
      const absent = (this.db.prepare('SELECT page_id, absent_since FROM page_absence').all() as Row[]).map((row) => [text(row, 'page_id'), num(row, 'absent_since')] as const);
      for (const [pageId] of absent) if (present.has(pageId)) this.db.prepare('DELETE FROM page_absence WHERE page_id = ?').run(pageId);
      const since = new Map(absent);
      let removed = 0;
      for (const pageId of known) {
        if (present.has(pageId)) continue;
        const from = since.get(pageId);
        if (from === undefined) {
          this.db.prepare('INSERT OR IGNORE INTO page_absence (page_id, absent_since) VALUES (?, ?)').run(pageId, now);
        } else if (now - from >= graceMs) {
          removed += Number(this.db.prepare('DELETE FROM subscribers WHERE page_id = ?').run(pageId).changes);
          this.db.prepare('DELETE FROM page_absence WHERE page_id = ?').run(pageId);
        }
      }
      return removed;
    });
  }

  stats(): StoreStats {
    const subscribers = Object.fromEntries(SUBSCRIBER_STATES.map((state) => [state, 0])) as Record<SubscriberState, number>;
    for (const row of this.db.prepare('SELECT state, COUNT(*) AS n FROM subscribers GROUP BY state').all() as Row[]) subscribers[text(row, 'state') as SubscriberState] = num(row, 'n');
    const outbox = Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as Record<OutboxState, number>;
    for (const row of this.db.prepare('SELECT state, COUNT(*) AS n FROM outbox GROUP BY state').all() as Row[]) outbox[text(row, 'state') as OutboxState] = num(row, 'n');
    const oldest = this.db.prepare("SELECT MIN(created_at) AS oldest FROM outbox WHERE state IN ('pending', 'sending')").get() as Row | undefined;
    return { subscribers, outbox, oldestWaiting: oldest?.oldest === null || oldest?.oldest === undefined ? null : num(oldest, 'oldest') };
  }

  /** Every subscriber, oldest first (the operators' script). */
  list(): Subscriber[] {
    return (this.db.prepare('SELECT * FROM subscribers ORDER BY created_at, id').all() as Row[]).map(subscriber);
  }

  /** Subscribers whose id is `idOrEmail`, or whose address is (any page). */
  find(idOrEmail: string): Subscriber[] {
    return (this.db.prepare('SELECT * FROM subscribers WHERE id = ? OR email_key = ? ORDER BY created_at, id').all(idOrEmail, idOrEmail.trim().toLowerCase()) as Row[]).map(subscriber);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

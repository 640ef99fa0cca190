/**
 * The subscribers store: one database of its own (SUBSCRIBERS_DB, a SQLite file created 0600, or
 * the schema `subscribers` of the PostgreSQL database at DATABASE_URL) holding subscribers, the events found in the data and the durable outbox of (subscriber, event)
 * mails. Built on the storage floor (src/store/): portable SQL through `Sql`, times stored as ISO
 * text and handled here as epoch milliseconds, rows read strictly, an asynchronous interface (the
 * floor's; the same SQL runs on both dialects). The store lives on the subscriptions thread, never on the
 * thread that answers visitors.
 */
import { skipLockedRows, type Database, type Transaction } from '../store/database.ts';
import { newId } from '../store/ids.ts';
import { migrate } from '../store/migrations.ts';
import { openDatabase, type StoreLocation } from '../store/location.ts';
import { isStringArray, readRow, type Row } from '../store/rows.ts';
import { OUTBOX_RETENTION_MS, PURGE_BATCH_ROWS, purgeDoneRows, sumOverSlices } from '../store/outbox-retention.ts';
import { storedTime } from '../store/time.ts';
import { SUBSCRIBER_MIGRATIONS } from './migrations.ts';
import { hashToken, newToken } from './tokens.ts';

export const SUBSCRIBER_STATES = ['pending', 'confirmed', 'bouncing'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];
/** How a subscriber is reached: by mail, by a signed webhook in Statuspage's format, or a chat service's incoming webhook. */
export const SUBSCRIBER_CHANNELS = ['email', 'webhook', 'slack', 'discord', 'teams'] as const;
export type SubscriberChannel = (typeof SUBSCRIBER_CHANNELS)[number];
export type EndpointChannel = Exclude<SubscriberChannel, 'email'>;
export const OUTBOX_STATES = ['pending', 'sending', 'sent', 'failed', 'unknown'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** Confirmation links live 48 hours; one confirmation mail per address and hour. */
export const CONFIRM_TTL_MS = 48 * 3_600_000;
export const CONFIRM_INTERVAL_MS = 3_600_000;
/** A webhook or chat subscription is pending only while its first request is out (bounded by the request's timeout). */
export const ENDPOINT_CONFIRM_TTL_MS = 5 * 60_000;
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
  channel: SubscriberChannel;
  /** Webhook and chat: where deliveries go (null for e-mail). */
  endpointUrl: string | null;
  /** Webhook: the Standard Webhooks secret (`whsec_…`); null otherwise. */
  signingSecret: string | null;
  contactEmail: string | null;
  /** A page with an audience: the viewer (`vwr_…`) whose grant let them subscribe; null otherwise. */
  viewerId: string | null;
}

/**
 * Who of a page's subscribers an event is queued for when the page has an audience: only those
 * who subscribed as one of `viewers` (the viewers whose grant is live now, see
 * subscribers/private-subscribers.ts). Absent: a public page, every subscriber.
 */
export interface EventAudience {
  viewers: ReadonlySet<string>;
}

/** A webhook or chat subscription to create (its URL already checked). */
export interface EndpointRequest {
  channel: EndpointChannel;
  url: string;
  host: string;
  signingSecret: string | null;
  contactEmail: string | null;
}

/** A delivery to a webhook or chat receiver, claimed (`sending`). */
export interface DueDelivery {
  subscriberId: string;
  pageId: string;
  eventId: number;
  channel: EndpointChannel;
  url: string;
  host: string;
  signingSecret: string | null;
  contactEmail: string | null;
  locale: string | null;
  /** The event row's content (see outbox-sender.ts StoredEvent). */
  mail: string;
  attempts: number;
  /** When the delivery was queued: it is retried for up to a day from then. */
  queuedAt: number;
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

/** One outbox row: a (subscriber, event) pair. */
export type OutboxKey = Pick<DueMail, 'subscriberId' | 'eventId'>;

export interface StoreStats {
  /** Every channel together. */
  subscribers: Record<SubscriberState, number>;
  /** The same counts per channel (e-mail, webhook, slack, discord, teams). */
  subscribersByChannel: Record<SubscriberChannel, Record<SubscriberState, number>>;
  outbox: Record<OutboxState, number>;
  /** Created time of the oldest mail still waiting (pending or sending), or null. */
  oldestWaiting: number | null;
}

/** A page's subscribers per channel and state. */
export type PageSubscriberCounts = Record<SubscriberChannel, Record<SubscriberState, number>>;

export function emptyPageCounts(): PageSubscriberCounts {
  return Object.fromEntries(SUBSCRIBER_CHANNELS.map((channel) => [channel, Object.fromEntries(SUBSCRIBER_STATES.map((state) => [state, 0]))])) as PageSubscriberCounts;
}

/** Subscriber ids: the floor's scheme (ids from before it, bare random text, stay valid). */
const SUBSCRIBER_ID_PREFIX = 'subr';

function subscriber(row: Row): Subscriber {
  const read = readRow('subscribers', row);
  return {
    id: read.text('id'),
    pageId: read.text('page_id'),
    email: read.text('email'),
    components: read.json('components', isStringArray, 'array of monitor ids'),
    state: read.oneOf('state', SUBSCRIBER_STATES),
    createdAt: read.time('created_at'),
    locale: read.textOrNull('locale'),
    channel: read.oneOf('channel', SUBSCRIBER_CHANNELS),
    endpointUrl: read.textOrNull('endpoint_url'),
    signingSecret: read.textOrNull('signing_secret'),
    contactEmail: read.textOrNull('contact_email'),
    viewerId: read.textOrNull('viewer_id'),
  };
}

const ENDPOINT_CHANNELS = SUBSCRIBER_CHANNELS.filter((channel): channel is EndpointChannel => channel !== 'email');

/** The unique key of an endpoint subscriber (the column e-mail keys share, so one UNIQUE serves both). */
export const endpointKey = (url: string) => `url:${url}`;

const t = storedTime;

/** An outbox row `o` that is its subscriber's next: nothing older waits, nothing of theirs is out. */
const HEAD_OF_LINE = `NOT EXISTS (SELECT 1 FROM outbox b WHERE b.subscriber_id = o.subscriber_id AND b.event_id < o.event_id AND b.state IN ('pending', 'sending'))
  AND NOT EXISTS (SELECT 1 FROM outbox c WHERE c.subscriber_id = o.subscriber_id AND c.state = 'sending')`;

/** How long a claim holds unless renewed (the sender renews it every third of it while it sends). */
export const DEFAULT_LEASE_MS = 60_000;

export interface StoreOptions {
  /** How long a claim of an outbox row holds unless renewed (default DEFAULT_LEASE_MS; tests shorten it). */
  leaseMs?: number;
}

/** What reclaimExpired did with rows whose lease ran out. */
export interface Reclaimed {
  /** Claimed but never handed over: pending again, sent by whoever claims them next. */
  requeued: number;
  /** Handed over, no result recorded: `unknown`, never sent again. */
  inDoubt: number;
}

/** A result is recorded only by the claim's holder: a process whose lease ran out (and was taken over) changes nothing. */
const HELD = "state = 'sending' AND claimed_by = ?";

export class SubscriberStore {
  private readonly db: Database;
  private readonly key: string;
  /** This open store's claims (one per process): random, never reused, so an old holder is never mistaken for a new one. */
  readonly owner: string;
  readonly leaseMs: number;

  private constructor(db: Database, key: string, leaseMs: number) {
    this.db = db;
    this.key = key;
    this.owner = newId('claim');
    this.leaseMs = leaseMs;
  }

  /**
   * Opens and migrates the store: a SQLite file at `location` when it is a path (created 0600 if
   * needed; ':memory:' for a throwaway one), or a PostgreSQL database (its schema `subscribers`).
   */
  static async open(location: string | StoreLocation, options: StoreOptions = {}): Promise<SubscriberStore> {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(leaseMs > 0)) throw new RangeError(`leaseMs: expected a positive number of milliseconds, found ${leaseMs}`);
    const db = await openDatabase(typeof location === 'string' ? { dialect: 'sqlite', path: location } : location, SUBSCRIBER_MIGRATIONS.store);
    try {
      await migrate(db, SUBSCRIBER_MIGRATIONS);
      const read = () => db.get("SELECT value FROM meta WHERE key = 'manage-key'");
      let row = await read();
      if (!row) {
        // Made once: whoever inserts first wins, and everyone reads that one.
        await db.run("INSERT INTO meta (key, value) VALUES ('manage-key', ?) ON CONFLICT (key) DO NOTHING", newToken());
        row = await read();
      }
      return new SubscriberStore(db, readRow('meta', row ?? {}).text('value'), leaseMs);
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  private transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The key of manage-link HMACs, made once per store (read when it opens: links are signed without waiting). */
  secret(): string {
    return this.key;
  }

  /** The data the event feed compared against last (see feed-baseline.ts), as it was saved. */
  async readFeedBaseline(): Promise<string | null> {
    const row = await this.db.get("SELECT value FROM meta WHERE key = 'feed-baseline'");
    return row ? readRow('meta', row).text('value') : null;
  }

  async writeFeedBaseline(value: string): Promise<void> {
    await this.db.run("INSERT INTO meta (key, value) VALUES ('feed-baseline', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", value);
  }

  /**
   * A subscribe request. Returns the confirmation token to mail, or null when nothing may be
   * sent (already confirmed, or a confirmation went out less than an hour ago). The caller's
   * answer to the visitor is the same either way. A pending request takes the newest `locale`;
   * a confirmed subscriber's language is not changed by someone else's form post.
   */
  subscribe(pageId: string, email: { address: string; key: string }, chosen: readonly string[], now: number, locale: string | null = null, viewerId: string | null = null): Promise<{ id: string; token: string } | null> {
    return this.transaction(async (tx) => {
      const token = newToken();
      const id = newId(SUBSCRIBER_ID_PREFIX);
      const inserted = await tx.run(
        `INSERT INTO subscribers (id, page_id, email, email_key, components, state, confirm_hash, confirm_expires, confirm_sent_at, created_at, locale, viewer_id)
         VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?) ON CONFLICT (page_id, email_key) DO NOTHING`,
        id, pageId, email.address, email.key, JSON.stringify(chosen), hashToken(token), t(now + CONFIRM_TTL_MS), t(now), t(now), locale, viewerId,
      );
      if (inserted.changes > 0) return { id, token };
      // Renewed only while pending and once the hour since the last mail has passed: the guard is
      // in the WHERE, so two requests at once renew it once.
      const renewed = await tx.get(
        `UPDATE subscribers SET components = ?, confirm_hash = ?, confirm_expires = ?, confirm_sent_at = ?, locale = ?, viewer_id = ?
         WHERE page_id = ? AND email_key = ? AND state = 'pending' AND (confirm_sent_at IS NULL OR confirm_sent_at <= ?) RETURNING id`,
        JSON.stringify(chosen), hashToken(token), t(now + CONFIRM_TTL_MS), t(now), locale, viewerId, pageId, email.key, t(now - CONFIRM_INTERVAL_MS),
      );
      return renewed ? { id: readRow('subscribers', renewed).text('id'), token } : null;
    });
  }

  /** A confirmation mail that could not be sent does not count against the hourly limit. */
  async confirmationNotSent(id: string): Promise<void> {
    await this.db.run("UPDATE subscribers SET confirm_sent_at = NULL WHERE id = ? AND state = 'pending'", id);
  }

  /** Whether a confirmation token is live (for the page with the button). */
  async confirmable(token: string, now: number): Promise<Subscriber | null> {
    const row = await this.db.get("SELECT * FROM subscribers WHERE confirm_hash = ? AND state = 'pending' AND confirm_expires > ?", hashToken(token), t(now));
    return row ? subscriber(row) : null;
  }

  /** Uses a confirmation token (once): the subscriber confirmed, or null. */
  async confirm(token: string, now: number): Promise<Subscriber | null> {
    const row = await this.db.get(
      `UPDATE subscribers SET state = 'confirmed', confirm_hash = NULL, confirm_expires = NULL, confirmed_at = ?
       WHERE confirm_hash = ? AND state = 'pending' AND confirm_expires > ? RETURNING *`,
      t(now), hashToken(token), t(now),
    );
    return row ? subscriber(row) : null;
  }

  async get(id: string): Promise<Subscriber | null> {
    const row = await this.db.get('SELECT * FROM subscribers WHERE id = ?', id);
    return row ? subscriber(row) : null;
  }

  async setComponents(id: string, chosen: readonly string[]): Promise<void> {
    await this.db.run('UPDATE subscribers SET components = ? WHERE id = ?', JSON.stringify(chosen), id);
  }

  /** Deletes the address and its waiting mails. Returns whether there was one. */
  async remove(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM subscribers WHERE id = ?', id)).changes > 0;
  }

  /** Unconfirmed requests past their link's expiry are deleted. */
  async expirePending(now: number): Promise<number> {
    return (await this.db.run("DELETE FROM subscribers WHERE state = 'pending' AND confirm_expires <= ?", t(now))).changes;
  }

  /** The viewers a page's confirmed subscribers subscribed as, each once (whose grants an event of the page checks). */
  async subscribedViewers(pageId: string): Promise<string[]> {
    return (await this.db.all("SELECT DISTINCT viewer_id FROM subscribers WHERE page_id = ? AND state = 'confirmed' AND viewer_id IS NOT NULL ORDER BY viewer_id", pageId)).map((row) => readRow('subscribers', row).text('viewer_id'));
  }

  /** The languages a page's confirmed subscribers read (null: the page's default), each once. */
  async subscriberLocales(pageId: string): Promise<(string | null)[]> {
    return (await this.db.all("SELECT DISTINCT locale FROM subscribers WHERE page_id = ? AND state = 'confirmed' ORDER BY locale NULLS FIRST", pageId)).map((row) => readRow('subscribers', row).textOrNull('locale'));
  }

  /**
   * Records an event for a page and queues its mail (or delivery) for each confirmed subscriber of `channels` who chose one
   * of `monitorIds` (or everything), in one transaction: an event is recorded once, whatever
   * happens later, and a (subscriber, event) pair once. Returns the mails queued (0 when the
   * event was already recorded).
   */
  async recordEvent(pageId: string, key: string, mail: string, monitorIds: ReadonlySet<string>, now: number, channels: readonly SubscriberChannel[] = SUBSCRIBER_CHANNELS, audience: EventAudience | null = null): Promise<number> {
    const at = t(now);
    return this.transaction(async (tx) => {
      const inserted = await tx.get('INSERT INTO events (page_id, key, mail, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (page_id, key) DO NOTHING RETURNING id', pageId, key, mail, at);
      if (!inserted) return 0;
      const eventId = readRow('events', inserted).int('id');
      let queued = 0;
      // Only the channels the event has a form for (a component's change is Statuspage's component_update: webhooks only).
      const among = channels.map(() => '?').join(', ');
      for (const row of await tx.all(`SELECT id, components, viewer_id FROM subscribers WHERE page_id = ? AND state = 'confirmed' AND channel IN (${among})`, pageId, ...channels)) {
        const read = readRow('subscribers', row);
        // A page with an audience: mailed only to a viewer whose grant is live (no viewer: never).
        if (audience) {
          const viewer = read.textOrNull('viewer_id');
          if (viewer === null || !audience.viewers.has(viewer)) continue;
        }
        const chosen = read.json('components', isStringArray, 'array of monitor ids');
        if (chosen.length > 0 && !chosen.some((id) => monitorIds.has(id))) continue;
        queued += (await tx.run(
          "INSERT INTO outbox (subscriber_id, event_id, state, attempts, next_attempt, created_at, updated_at) VALUES (?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT (subscriber_id, event_id) DO NOTHING",
          read.text('id'), eventId, at, at, at,
        )).changes;
      }
      return queued;
    });
  }

  /**
   * Claims up to `limit` due mails for this store (`owner`) until `now + leaseMs`: they are
   * `sending` until marked, so none goes out twice. Call markStarted right before handing one over.
   */
  async claimDue(now: number, limit: number): Promise<DueMail[]> {
    const at = t(now);
    return this.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT o.subscriber_id, o.event_id, o.attempts, s.email, s.locale, s.state AS subscriber_state, e.mail
         FROM outbox o JOIN subscribers s ON s.id = o.subscriber_id JOIN events e ON e.id = o.event_id
         WHERE o.state = 'pending' AND o.next_attempt <= ? AND s.channel = 'email' ORDER BY o.next_attempt, o.event_id LIMIT ?
         ${skipLockedRows(this.db.dialect, 'o')}`,
        at, limit,
      );
      const due: DueMail[] = [];
      for (const row of rows) {
        const read = readRow('outbox', row);
        const mail = { subscriberId: read.text('subscriber_id'), eventId: read.int('event_id') };
        // A subscriber who started bouncing after the mail was queued gets nothing more.
        const live = read.oneOf('subscriber_state', SUBSCRIBER_STATES) === 'confirmed';
        const claimed = (await tx.run(
          "UPDATE outbox SET state = ?, attempts = attempts + 1, updated_at = ?, claimed_by = ?, lease_until = ?, started_at = NULL WHERE subscriber_id = ? AND event_id = ? AND state = 'pending'",
          live ? 'sending' : 'failed', at, this.owner, t(now + this.leaseMs), mail.subscriberId, mail.eventId,
        )).changes;
        if (live && claimed > 0) due.push({ ...mail, email: read.text('email'), locale: read.textOrNull('locale'), mail: read.text('mail'), attempts: read.int('attempts') + 1 });
      }
      return due;
    });
  }

  /**
   * Right before a claimed mail (or request) is handed over: from now on a crash leaves it in
   * doubt. False when the claim is no longer this store's (its lease ran out and it was
   * settled by another process): then it must not be sent.
   */
  async markStarted(mail: OutboxKey, now: number): Promise<boolean> {
    return (await this.db.run(`UPDATE outbox SET started_at = ?, lease_until = ? WHERE subscriber_id = ? AND event_id = ? AND ${HELD}`, t(now), t(now + this.leaseMs), mail.subscriberId, mail.eventId, this.owner)).changes > 0;
  }

  /**
   * Extends the claims listed, those a sender of this store is still working on, to `now +
   * leaseMs` (called every third of a lease). Only those: a claim whose round failed (the store
   * unreachable when its result was to be written) is no longer renewed, so its lease runs out
   * and reclaimExpired settles it; renewing every claim of the store kept such mails claimed,
   * never sent, as long as the process lived (issue 29).
   */
  async renewLeases(now: number, held: readonly OutboxKey[]): Promise<number> {
    // A few dozen at most (the senders' concurrency).
    return sumOverSlices(held, async (slice) => (await this.db.run(
      `UPDATE outbox SET lease_until = ? WHERE ${HELD} AND (${slice.map(() => '(subscriber_id = ? AND event_id = ?)').join(' OR ')})`,
      t(now + this.leaseMs), this.owner, ...slice.flatMap((key) => [key.subscriberId, key.eventId]),
    )).changes);
  }

  /**
   * A claim given back by a sender whose work on it failed before it was handed over: pending
   * again at once, the attempt not counted. Nothing when it was handed over (`started_at` set:
   * its lease makes it `unknown`, never sent again) or is no longer this store's. Best effort:
   * when the store cannot be reached, the claim's lease settles it the same way.
   */
  async release(mail: OutboxKey, now: number): Promise<boolean> {
    return (await this.db.run(
      `UPDATE outbox SET state = 'pending', attempts = attempts - 1, next_attempt = ?, updated_at = ?, claimed_by = NULL, lease_until = NULL WHERE subscriber_id = ? AND event_id = ? AND ${HELD} AND started_at IS NULL`,
      t(now), t(now), mail.subscriberId, mail.eventId, this.owner,
    )).changes > 0;
  }

  /** Delivered. False (nothing recorded) when the claim is no longer this store's. */
  async markSent(mail: OutboxKey, now: number): Promise<boolean> {
    return this.transaction(async (tx) => {
      const held = (await tx.run(`UPDATE outbox SET state = 'sent', lease_until = NULL, updated_at = ? WHERE subscriber_id = ? AND event_id = ? AND ${HELD}`, t(now), mail.subscriberId, mail.eventId, this.owner)).changes > 0;
      if (held) await tx.run('UPDATE subscribers SET bounces = 0 WHERE id = ?', mail.subscriberId);
      return held;
    });
  }

  /** A temporary failure (SMTP down, 4xx): the mail waits until `nextAttempt`, claimed by nobody. False when the claim is no longer this store's. */
  async markRetry(mail: OutboxKey, nextAttempt: number, now: number): Promise<boolean> {
    return (await this.db.run(
      `UPDATE outbox SET state = 'pending', next_attempt = ?, updated_at = ?, claimed_by = NULL, lease_until = NULL, started_at = NULL WHERE subscriber_id = ? AND event_id = ? AND ${HELD}`,
      t(nextAttempt), t(now), mail.subscriberId, mail.eventId, this.owner,
    )).changes > 0;
  }

  /** A permanent failure (5xx to RCPT TO): this mail is given up; repeated ones mark the address bouncing. False when the claim is no longer this store's. */
  async markFailed(mail: OutboxKey, now: number, bounce = true): Promise<boolean> {
    return this.transaction(async (tx) => {
      const held = (await tx.run(`UPDATE outbox SET state = 'failed', lease_until = NULL, updated_at = ? WHERE subscriber_id = ? AND event_id = ? AND ${HELD}`, t(now), mail.subscriberId, mail.eventId, this.owner)).changes > 0;
      // A mail given up after retries (the server, not the address) does not count as a bounce.
      if (held && bounce) await tx.run("UPDATE subscribers SET bounces = bounces + 1, state = CASE WHEN bounces + 1 >= ? THEN 'bouncing' ELSE state END WHERE id = ?", BOUNCE_LIMIT, mail.subscriberId);
      return held;
    });
  }

  /**
   * Settles claims whose lease ran out without a result (their holder died, or stalled past
   * its lease), whoever held them; a live lease is never touched. Never handed over
   * (`started_at` NULL): pending again, at once. Handed over: the SMTP server (or receiver) may
   * or may not have taken it, so it is `unknown` and never sent again (at most once). Any
   * process may call it, at any time; a row is settled once (the WHERE re-checks it).
   */
  async reclaimExpired(now: number): Promise<Reclaimed> {
    const at = t(now);
    return this.transaction(async (tx) => {
      const requeued = (await tx.run(
        "UPDATE outbox SET state = 'pending', attempts = attempts - 1, next_attempt = ?, updated_at = ?, claimed_by = NULL, lease_until = NULL WHERE state = 'sending' AND lease_until < ? AND started_at IS NULL",
        at, at, at,
      )).changes;
      const inDoubt = (await tx.run("UPDATE outbox SET state = 'unknown', lease_until = NULL, updated_at = ? WHERE state = 'sending' AND lease_until < ?", at, at)).changes;
      return { requeued, inDoubt };
    });
  }

  /** The earliest moment a pending mail (`endpoints`: webhook or chat delivery) is due, or null when none waits. */
  async nextDue(endpoints = false): Promise<number | null> {
    // A delivery behind another of the same subscriber is not due before it (see claimDueDeliveries).
    const headOnly = endpoints ? ` AND ${HEAD_OF_LINE}` : '';
    const row = await this.db.get(
      `SELECT MIN(o.next_attempt) AS next FROM outbox o JOIN subscribers s ON s.id = o.subscriber_id WHERE o.state = 'pending' AND s.channel ${endpoints ? '<>' : '='} 'email'${headOnly}`,
    );
    return row ? readRow('outbox', row).timeOrNull('next') : null;
  }

  /**
   * A webhook or chat subscription, pending until its first delivery (the ping, or the chat's
   * first message) is answered 2xx. Null when that URL already subscribes to the page.
   */
  async subscribeEndpoint(pageId: string, endpoint: EndpointRequest, chosen: readonly string[], now: number, locale: string | null): Promise<string | null> {
    const id = newId(SUBSCRIBER_ID_PREFIX);
    const inserted = await this.db.run(
      `INSERT INTO subscribers (id, page_id, email, email_key, components, state, confirm_expires, created_at, locale, channel, endpoint_url, endpoint_host, signing_secret, contact_email)
       VALUES (?, ?, '', ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (page_id, email_key) DO NOTHING`,
      // Pending only while its first request is out; if Porchlight stops meanwhile, expirePending removes it.
      id, pageId, endpointKey(endpoint.url), JSON.stringify(chosen), t(now + ENDPOINT_CONFIRM_TTL_MS), t(now), locale, endpoint.channel, endpoint.url, endpoint.host.toLowerCase(), endpoint.signingSecret, endpoint.contactEmail,
    );
    return inserted.changes > 0 ? id : null;
  }

  /** The receiver answered the first delivery with 2xx. */
  async confirmEndpoint(id: string, now: number): Promise<void> {
    await this.db.run("UPDATE subscribers SET state = 'confirmed', confirmed_at = ? WHERE id = ? AND state = 'pending'", t(now), id);
  }

  /**
   * Claims up to `limit` due webhook and chat deliveries, oldest event first, at most `perHost` in
   * flight per host (counting `busy`, those already out) and one per subscriber: a subscriber's
   * next event waits until the one before is delivered or given up, so receivers hear events in order.
   */
  async claimDueDeliveries(now: number, limit: number, perHost: number, busy: ReadonlyMap<string, number>): Promise<DueDelivery[]> {
    if (limit <= 0) return [];
    const at = t(now);
    return this.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT o.subscriber_id, o.event_id, o.attempts, o.created_at, s.page_id, s.channel, s.endpoint_url, s.endpoint_host, s.signing_secret, s.contact_email, s.locale, s.state AS subscriber_state, e.mail
         FROM outbox o JOIN subscribers s ON s.id = o.subscriber_id JOIN events e ON e.id = o.event_id
         WHERE o.state = 'pending' AND o.next_attempt <= ? AND s.channel <> 'email'
           AND ${HEAD_OF_LINE}
         ORDER BY o.next_attempt, o.event_id LIMIT ?
         ${skipLockedRows(this.db.dialect, 'o')}`,
        at, limit * 8,
      );
      const inFlight = new Map(busy);
      const due: DueDelivery[] = [];
      for (const row of rows) {
        if (due.length >= limit) break;
        const read = readRow('outbox', row);
        const host = read.text('endpoint_host');
        const live = read.oneOf('subscriber_state', SUBSCRIBER_STATES) === 'confirmed';
        if (live && (inFlight.get(host) ?? 0) >= perHost) continue;
        const key = { subscriberId: read.text('subscriber_id'), eventId: read.int('event_id') };
        const claimed = (await tx.run(
          "UPDATE outbox SET state = ?, attempts = attempts + 1, updated_at = ?, claimed_by = ?, lease_until = ?, started_at = NULL WHERE subscriber_id = ? AND event_id = ? AND state = 'pending'",
          live ? 'sending' : 'failed', at, this.owner, t(now + this.leaseMs), key.subscriberId, key.eventId,
        )).changes;
        if (!live || claimed === 0) continue;
        inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
        due.push({
          ...key,
          pageId: read.text('page_id'),
          channel: read.oneOf('channel', ENDPOINT_CHANNELS),
          url: read.text('endpoint_url'),
          host,
          signingSecret: read.textOrNull('signing_secret'),
          contactEmail: read.textOrNull('contact_email'),
          locale: read.textOrNull('locale'),
          mail: read.text('mail'),
          attempts: read.int('attempts') + 1,
          queuedAt: read.time('created_at'),
        });
      }
      return due;
    });
  }

  /**
   * Deliveries have failed for too long: the subscriber is paused (state 'bouncing', nothing more
   * is sent; `paused_at` tells it from a bouncing address) and its waiting deliveries given up.
   */
  async pauseEndpoint(id: string, now: number): Promise<void> {
    await this.transaction(async (tx) => {
      await tx.run("UPDATE subscribers SET state = 'bouncing', paused_at = ? WHERE id = ?", t(now), id);
      await tx.run("UPDATE outbox SET state = 'failed', updated_at = ? WHERE subscriber_id = ? AND state IN ('pending', 'sending')", t(now), id);
    });
  }

  /**
   * Pages missing from the data: subscribers of a page absent since more than `graceMs` are
   * deleted. Called only with successfully loaded data, so an API error never deletes anyone.
   */
  async notePages(present: ReadonlySet<string>, now: number, graceMs: number): Promise<number> {
    return this.transaction(async (tx) => {
      const known = (await tx.all('SELECT DISTINCT page_id FROM subscribers')).map((row) => readRow('subscribers', row).text('page_id'));
      const absent = (await tx.all('SELECT page_id, absent_since FROM page_absence')).map((row) => {
        const read = readRow('page_absence', row);
        return [read.text('page_id'), read.time('absent_since')] as const;
      });
      for (const [pageId] of absent) if (present.has(pageId)) await tx.run('DELETE FROM page_absence WHERE page_id = ?', pageId);
      const since = new Map(absent);
      let removed = 0;
      for (const pageId of known) {
        if (present.has(pageId)) continue;
        const from = since.get(pageId);
        if (from === undefined) {
          await tx.run('INSERT INTO page_absence (page_id, absent_since) VALUES (?, ?) ON CONFLICT (page_id) DO NOTHING', pageId, t(now));
        } else if (now - from >= graceMs) {
          removed += (await tx.run('DELETE FROM subscribers WHERE page_id = ?', pageId)).changes;
          await tx.run('DELETE FROM page_absence WHERE page_id = ?', pageId);
        }
      }
      return removed;
    });
  }

  /**
   * Deletes up to `limit` outbox rows done with (`sent`, `failed`, `unknown`) whose last change is
   * older than `retentionMs` (store/outbox-retention.ts); guarded, so replicas purging at once
   * delete each row once. Events stay: their keys keep an event from being recorded twice.
   */
  purgeDone(now: number, retentionMs = OUTBOX_RETENTION_MS, limit = PURGE_BATCH_ROWS): Promise<number> {
    return purgeDoneRows(this.db, { table: 'outbox', key: ['subscriber_id', 'event_id'], doneStates: ['sent', 'failed', 'unknown'] }, now, retentionMs, limit);
  }

  async stats(): Promise<StoreStats> {
    const zeros = () => Object.fromEntries(SUBSCRIBER_STATES.map((state) => [state, 0])) as Record<SubscriberState, number>;
    const subscribers = zeros();
    const subscribersByChannel = Object.fromEntries(SUBSCRIBER_CHANNELS.map((channel) => [channel, zeros()])) as Record<SubscriberChannel, Record<SubscriberState, number>>;
    for (const row of await this.db.all('SELECT channel, state, COUNT(*) AS n FROM subscribers GROUP BY channel, state')) {
      const read = readRow('subscribers', row);
      const state = read.oneOf('state', SUBSCRIBER_STATES);
      const n = read.int('n');
      subscribers[state] += n;
      subscribersByChannel[read.oneOf('channel', SUBSCRIBER_CHANNELS)][state] = n;
    }
    const outbox = Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as Record<OutboxState, number>;
    for (const row of await this.db.all('SELECT state, COUNT(*) AS n FROM outbox GROUP BY state')) {
      const read = readRow('outbox', row);
      outbox[read.oneOf('state', OUTBOX_STATES)] = read.int('n');
    }
    const oldest = await this.db.get("SELECT MIN(created_at) AS oldest FROM outbox WHERE state IN ('pending', 'sending')");
    return { subscribers, subscribersByChannel, outbox, oldestWaiting: oldest ? readRow('outbox', oldest).timeOrNull('oldest') : null };
  }

  /**
   * Subscribers per page, channel and state, counted by the database (the console's subscribers
   * screen): never the rows themselves. Pages without subscribers are absent.
   */
  async countsByPage(): Promise<Map<string, PageSubscriberCounts>> {
    const counts = new Map<string, PageSubscriberCounts>();
    for (const row of await this.db.all('SELECT page_id, channel, state, COUNT(*) AS n FROM subscribers GROUP BY page_id, channel, state')) {
      const read = readRow('subscribers', row);
      const pageId = read.text('page_id');
      const entry = counts.get(pageId) ?? emptyPageCounts();
      entry[read.oneOf('channel', SUBSCRIBER_CHANNELS)][read.oneOf('state', SUBSCRIBER_STATES)] = read.int('n');
      counts.set(pageId, entry);
    }
    return counts;
  }

  /** One page's subscribers of one channel, oldest first (the console's export). */
  async ofPage(pageId: string, channel: SubscriberChannel): Promise<Subscriber[]> {
    return (await this.db.all('SELECT * FROM subscribers WHERE page_id = ? AND channel = ? ORDER BY created_at, id', pageId, channel)).map(subscriber);
  }

  /** Webhook and chat subscribers of every page, oldest first, at most `limit` after the first `offset` (the console lists them a page at a time). */
  async endpoints(limit: number, offset = 0): Promise<Subscriber[]> {
    return (await this.db.all("SELECT * FROM subscribers WHERE channel <> 'email' ORDER BY created_at, id LIMIT ? OFFSET ?", limit, offset)).map(subscriber);
  }

  /** Every subscriber, oldest first (the operators' script). */
  async list(): Promise<Subscriber[]> {
    return (await this.db.all('SELECT * FROM subscribers ORDER BY created_at, id')).map(subscriber);
  }

  /** Subscribers whose id is `idOrEmail`, or whose address (or webhook URL) is (any page). */
  async find(idOrEmail: string): Promise<Subscriber[]> {
    return (await this.db.all('SELECT * FROM subscribers WHERE id = ? OR email_key = ? OR endpoint_url = ? ORDER BY created_at, id', idOrEmail, idOrEmail.trim().toLowerCase(), idOrEmail.trim())).map(subscriber);
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}

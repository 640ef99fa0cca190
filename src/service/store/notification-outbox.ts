/**
 * The notification outbox of the API's channels: one row per (event, channel), shared by every
 * process on the store, so that each is sent by one process and a process killed before it sends
 * leaves the row to the others. The model is the subscribers' outbox (docs/subscriptions.md,
 * "Several processes, one outbox"): claimed with a guarded update (holder + lease), marked started
 * right before it is handed over, its result written only by its holder, and a lease that ran out
 * settled by any process (never handed over: pending again; handed over: `unknown`, never re-sent).
 * Scheduling times (`next_attempt`, leases) are wall-clock epoch milliseconds written as ISO text.
 */
import { z } from 'zod';
import { skipLockedRows, type Database, type Sql } from '../../store/database.ts';
import { newId } from '../../store/ids.ts';
import { OUTBOX_RETENTION_MS, PURGE_BATCH_ROWS, purgeDoneRows, sumOverSlices } from '../../store/outbox-retention.ts';
import { storedTime } from '../../store/time.ts';
import type { NotificationContent } from '../events/notification-content.ts';
import { fromTable, int, json, text, type Row } from './rows.ts';

const contentSchema = z.object({
  event: z.string(),
  organization: z.string(),
  title: z.string(),
  summary: z.string(),
  fields: z.array(z.object({ label: z.string(), value: z.string() })),
  emoji: z.string(),
  at: z.string(),
});

/** One (event, channel) to queue. `dedupeKey` is the same for every raise of the same event. */
export interface QueuedNotification {
  dedupeKey: string;
  organizationId: string;
  channelId: string;
  content: NotificationContent;
}

/** A row claimed by this process's sender. `attempt` is the number of this attempt (1 for the first). */
export interface ClaimedNotification {
  id: string;
  organizationId: string;
  channelId: string;
  content: NotificationContent;
  attempt: number;
}

export interface OutboxSettled {
  /** Claimed but never handed over: pending again. */
  requeued: number;
  /** Handed over, no result: `unknown`, never sent again. */
  inDoubt: number;
}

const t = storedTime;

/** Inserting rows: usable inside the transaction of the state change that raised the event. */
export class NotificationOutboxRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  /** Queues each row unless one with its key exists. Returns how many were new. */
  async queue(rows: readonly QueuedNotification[], nowMs: number): Promise<number> {
    let added = 0;
    for (const row of rows) {
      added += (await this.db.run(
        `INSERT INTO notification_outbox (id, dedupe_key, organization_id, channel_id, event, content_json, state, attempt, next_attempt, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', 1, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
        newId('dlv'), row.dedupeKey, row.organizationId, row.channelId, row.content.event, JSON.stringify(row.content), t(nowMs), t(nowMs), t(nowMs),
      )).changes;
    }
    return added;
  }

  /** Rows in each state, for tests and the operator. */
  async countByState(): Promise<Record<string, number>> {
    const rows = await this.db.all('SELECT state, COUNT(*) AS n FROM notification_outbox GROUP BY state');
    return Object.fromEntries(rows.map((row) => [text(row, 'state'), int(row, 'n')]));
  }
}

function toClaimed(row: Row): ClaimedNotification {
  return fromTable('notification_outbox', () => ({
    id: text(row, 'id'),
    organizationId: text(row, 'organization_id'),
    channelId: text(row, 'channel_id'),
    content: json(row, 'content_json', contentSchema) as NotificationContent,
    attempt: int(row, 'attempt'),
  }));
}

/** A result is written only by the claim's holder. */
const HELD = "state = 'sending' AND claimed_by = ?";

/** Claiming, fencing and settling: one instance per process (its `holder` id is random, never reused). */
export class NotificationOutboxClaims {
  private readonly db: Database;
  readonly holder: string;
  readonly leaseMs: number;

  constructor(db: Database, leaseMs: number) {
    this.db = db;
    this.holder = newId('claim');
    this.leaseMs = leaseMs;
  }

  /** Claims up to `limit` due rows for this holder until `now + leaseMs`, in the order they were queued. */
  async claimDue(nowMs: number, limit: number): Promise<ClaimedNotification[]> {
    if (limit <= 0) return [];
    return this.db.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT o.id, o.organization_id, o.channel_id, o.content_json, o.attempt FROM notification_outbox o
         WHERE o.state = 'pending' AND o.next_attempt <= ? ORDER BY o.next_attempt, o.rowid LIMIT ?
         ${skipLockedRows(this.db.dialect, 'o')}`,
        t(nowMs), limit,
      );
      const claimed: ClaimedNotification[] = [];
      for (const row of rows) {
        const item = toClaimed(row);
        const changed = (await tx.run(
          "UPDATE notification_outbox SET state = 'sending', claimed_by = ?, lease_until = ?, started_at = NULL, updated_at = ? WHERE id = ? AND state = 'pending'",
          this.holder, t(nowMs + this.leaseMs), t(nowMs), item.id,
        )).changes;
        if (changed > 0) claimed.push(item);
      }
      return claimed;
    });
  }

  /** Right before the send: from now on a crash leaves it in doubt. False: the claim is gone, do not send. */
  async markStarted(id: string, nowMs: number): Promise<boolean> {
    return (await this.db.run(`UPDATE notification_outbox SET started_at = ?, lease_until = ?, updated_at = ? WHERE id = ? AND ${HELD}`, t(nowMs), t(nowMs + this.leaseMs), t(nowMs), id, this.holder)).changes > 0;
  }

  /**
   * Extends the claims listed, those this process is still sending (called every third of a
   * lease). Only those: a claim whose attempt failed without a result written (the store
   * unreachable) is left to run out and be settled by reclaimExpired; renewing every claim of the
   * holder kept such a row claimed, never sent, as long as the process lived (issue 29).
   */
  async renewLeases(nowMs: number, ids: readonly string[]): Promise<number> {
    return sumOverSlices(ids, async (slice) => (await this.db.run(`UPDATE notification_outbox SET lease_until = ? WHERE ${HELD} AND id IN (${slice.map(() => '?').join(', ')})`, t(nowMs + this.leaseMs), this.holder, ...slice)).changes);
  }

  /**
   * A claim given back after its attempt failed before it was handed over: pending again at once.
   * Nothing when it was handed over (its lease makes it `unknown`) or is no longer this holder's.
   */
  async release(id: string, nowMs: number): Promise<boolean> {
    return (await this.db.run(
      `UPDATE notification_outbox SET state = 'pending', next_attempt = ?, claimed_by = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND ${HELD} AND started_at IS NULL`,
      t(nowMs), t(nowMs), id, this.holder,
    )).changes > 0;
  }

  /**
   * Writes an attempt's result, fenced by the claim: `retryAtMs` null ends the row (`done`),
   * else it is pending again at that time for its next attempt. `record` runs in the same
   * transaction only when the claim is still this holder's (the attempt row of the API's log).
   * False: the claim was settled by another process; nothing is written.
   */
  async finish(id: string, retryAtMs: number | null, nowMs: number, record: (tx: Sql) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const changed = retryAtMs === null
        ? (await tx.run(`UPDATE notification_outbox SET state = 'done', lease_until = NULL, updated_at = ? WHERE id = ? AND ${HELD}`, t(nowMs), id, this.holder)).changes
        : (await tx.run(
          `UPDATE notification_outbox SET state = 'pending', attempt = attempt + 1, next_attempt = ?, claimed_by = NULL, lease_until = NULL, started_at = NULL, updated_at = ? WHERE id = ? AND ${HELD}`,
          t(retryAtMs), t(nowMs), id, this.holder,
        )).changes;
      if (changed > 0) await record(tx);
      return changed > 0;
    });
  }

  /**
   * Settles claims whose lease ran out, whoever held them; a live lease is never touched. Never
   * handed over: pending again at once. Handed over: the receiver may or may not have it, so it is
   * `unknown` and never sent again (at most once). Any process, any time; each row settled once.
   */
  async reclaimExpired(nowMs: number): Promise<OutboxSettled> {
    const at = t(nowMs);
    return this.db.transaction(async (tx) => {
      const requeued = (await tx.run(
        "UPDATE notification_outbox SET state = 'pending', next_attempt = ?, claimed_by = NULL, lease_until = NULL, updated_at = ? WHERE state = 'sending' AND lease_until < ? AND started_at IS NULL",
        at, at, at,
      )).changes;
      const inDoubt = (await tx.run("UPDATE notification_outbox SET state = 'unknown', lease_until = NULL, updated_at = ? WHERE state = 'sending' AND lease_until < ?", at, at)).changes;
      return { requeued, inDoubt };
    });
  }

  /**
   * Deletes up to `limit` rows done with (`done`, `unknown`) whose last change is older than
   * `retentionMs` (store/outbox-retention.ts); guarded, so processes purging at once delete each
   * row once. The attempts' log (`notification_deliveries`) stays.
   */
  purgeDone(nowMs: number, retentionMs = OUTBOX_RETENTION_MS, limit = PURGE_BATCH_ROWS): Promise<number> {
    return purgeDoneRows(this.db, { table: 'notification_outbox', key: ['id'], doneStates: ['done', 'unknown'] }, nowMs, retentionMs, limit);
  }

  /** When the next pending row is due (epoch ms), or null when none waits. */
  async nextDue(): Promise<number | null> {
    const row = await this.db.get("SELECT MIN(next_attempt) AS at FROM notification_outbox WHERE state = 'pending'");
    const at = row?.at;
    return typeof at === 'string' ? Date.parse(at) : null;
  }
}

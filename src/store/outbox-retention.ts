/**
 * How long the outboxes keep rows that are done with (the subscribers' `sent`, `failed` and
 * `unknown`; the API's notification outbox `done` and `unknown`), how many each purge removes at
 * most, and the purge itself, shared by both. A row is needed only while it may still be sent; a
 * week keeps the recent ones for the operator to look at (and for the outbox counts), and lets two
 * replicas that raise the same event a moment apart still find it there and queue it once. Purged
 * in bounded batches by every replica's housekeeping, each a guarded DELETE (the WHERE re-checks
 * state and age), so that several replicas purging at once remove each row once and need nothing
 * else to agree.
 */
import { skipLockedRows, type Database } from './database.ts';
import { storedTime } from './time.ts';

export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/** Rows one purge deletes at most (one statement; the next tick takes the next batch). */
export const PURGE_BATCH_ROWS = 1_000;

export interface OutboxTable {
  table: string;
  /** The columns that name a row (its primary key). */
  key: readonly string[];
  /** The states of rows done with. */
  doneStates: readonly string[];
}

/**
 * Deletes up to `limit` rows of `outbox` in a done state whose last change (`updated_at`) is older
 * than `retentionMs`. Returns the rows deleted (fewer than `limit`: nothing older is left).
 */
export async function purgeDoneRows(db: Database, outbox: OutboxTable, nowMs: number, retentionMs = OUTBOX_RETENTION_MS, limit = PURGE_BATCH_ROWS): Promise<number> {
  const before = storedTime(nowMs - retentionMs);
  const done = `state IN (${outbox.doneStates.map((state) => `'${state}'`).join(', ')}) AND updated_at < ?`;
  const key = outbox.key.join(', ');
  const picked = outbox.key.length === 1 ? key : `(${key})`;
  return (await db.run(
    // The batch picked in a WITH, evaluated once: as a plain IN subquery PostgreSQL may run it
    // again per row and delete more than `limit`. The outer WHERE re-checks what it picked (on
    // PostgreSQL skipping rows another purge holds).
    `WITH batch AS (SELECT ${outbox.key.map((column) => `d.${column}`).join(', ')} FROM ${outbox.table} d WHERE d.${done} LIMIT ? ${skipLockedRows(db.dialect, 'd')})
     DELETE FROM ${outbox.table} WHERE ${done} AND ${picked} IN (SELECT ${key} FROM batch)`,
    before, limit, before,
  )).changes;
}

/**
 * Runs `statement` over `items` a hundred at a time (one statement per slice, its parameters
 * bounded) and adds up the rows each changed: the lease keepers renew the claims listed this way.
 */
export async function sumOverSlices<T>(items: readonly T[], statement: (slice: readonly T[]) => Promise<number>): Promise<number> {
  let total = 0;
  for (let start = 0; start < items.length; start += 100) total += await statement(items.slice(start, start + 100));
  return total;
}

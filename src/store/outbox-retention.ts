/**
 * How long the outboxes keep rows that are done with (the subscribers' `sent`, `failed` and
 * `unknown`; the API's notification outbox `done` and `unknown`), and how many each purge removes
 * at most. A row is needed only while it may still be sent; a week keeps the recent ones for the
 * operator to look at (and for the outbox counts), and lets two replicas that raise the same event
 * a moment apart still find it there and queue it once. Purged in bounded batches by every
 * replica's housekeeping, each a guarded DELETE (the WHERE re-checks state and age), so that
 * several replicas purging at once remove each row once and need nothing else to agree.
 */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/** Rows one purge deletes at most (one statement; the next tick takes the next batch). */
export const PURGE_BATCH_ROWS = 1_000;

/**
 * One time representation in every table: ISO-8601 UTC text with milliseconds, exactly as
 * `Date.prototype.toISOString` writes it (`2026-11-25T10:00:00.123Z`). It is what the embedded
 * API's store already keeps and what the API speaks; its fixed width makes text order time order,
 * so `<`, `MIN` and indexes work on it in SQLite; PostgreSQL reads the same text into a
 * `timestamptz` column. Code computes with epoch milliseconds and converts here, at the edge.
 */
const STORED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The stored text of an instant given in epoch milliseconds. */
export function storedTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Epoch milliseconds of stored time text, or null when the text is not one. */
export function readStoredTime(text: string): number | null {
  if (!STORED_TIME.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

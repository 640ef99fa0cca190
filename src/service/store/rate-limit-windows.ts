import type { Sql } from '../../store/database.ts';
import { int, text } from './rows.ts';

/**
 * Each API key's requests in the current fixed window, counted in the database so that every
 * process on it counts the same requests. One statement per request: an upsert that starts the
 * key's window or adds one to it, under the row's lock, and returns the count — exact across
 * processes (no request counted twice or lost under READ COMMITTED). Windows are aligned to the
 * epoch (`floor(now / window) * window`), so that processes agree where one ends; a process whose
 * clock is behind finds the newer window in the row and counts into it.
 */
export class RateLimitWindowRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  /** Counts one request of `apiKeyId` in the window starting at `windowStartMs`; resolves to the window's start and count. */
  async count(apiKeyId: string, windowStartMs: number): Promise<{ windowStart: string; count: number }> {
    const row = await this.db.get(
      `INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (api_key_id) DO UPDATE SET
         count = CASE WHEN rate_limit_windows.window_start >= excluded.window_start THEN rate_limit_windows.count + 1 ELSE 1 END,
         window_start = CASE WHEN rate_limit_windows.window_start >= excluded.window_start THEN rate_limit_windows.window_start ELSE excluded.window_start END
       RETURNING window_start, count`,
      apiKeyId,
      new Date(windowStartMs).toISOString(),
    );
    if (!row) throw new Error('rate-limit upsert returned no row');
    return { windowStart: text(row, 'window_start'), count: int(row, 'count') };
  }
}

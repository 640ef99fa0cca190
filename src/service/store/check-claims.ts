import type { Sql } from '../../store/database.ts';

/**
 * Which process runs each scheduled (monitor, region) check, written into the database so that
 * any number of processes may run a scheduler on one store. Each process keeps its own timers;
 * when one fires, the process claims the check with one guarded upsert that moves `next_at` an
 * interval on only if it has come (`next_at <= now + tolerance`). Of two processes whose timers
 * fire for the same check, the first claims it and the second finds `next_at` ahead and skips;
 * no process leads, so none can silently stop the others. A process killed after claiming leaves
 * `next_at` one interval ahead: the check is due again then. A process that finds `next_at` ahead
 * moves its own timer to it (`dueAt`), so every survivor's timer fires at the shared due time and
 * a dead claimer's check runs again one interval after its last run, not up to two. Correct under READ COMMITTED (the upsert locks the row and re-checks its WHERE on the
 * newest version) and on SQLite (one writer at a time).
 */
export class CheckClaimRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  /**
   * Claims the check of `monitorId` from `region` due at `nowMs` for `holder`, its next run
   * `intervalMs` later. `toleranceMs`: how early a timer may fire and still claim (timers and
   * clocks of two machines are not exact). True when this caller is to run the check.
   */
  async claim(monitorId: string, region: string, holder: string, nowMs: number, intervalMs: number, toleranceMs: number): Promise<boolean> {
    const next = new Date(nowMs + intervalMs).toISOString();
    const row = await this.db.get(
      `INSERT INTO check_claims (monitor_id, region, next_at, claimed_by) VALUES (?, ?, ?, ?)
       ON CONFLICT (monitor_id, region) DO UPDATE SET next_at = excluded.next_at, claimed_by = excluded.claimed_by
       WHERE check_claims.next_at <= ?
       RETURNING monitor_id`,
      monitorId,
      region,
      next,
      holder,
      new Date(nowMs + toleranceMs).toISOString(),
    );
    return row !== undefined;
  }

  /** The shared due time of the check of `monitorId` from `region` (ms), if any process has claimed it. */
  async dueAt(monitorId: string, region: string): Promise<number | null> {
    const row = await this.db.get('SELECT next_at FROM check_claims WHERE monitor_id = ? AND region = ?', monitorId, region);
    return row ? Date.parse(String(row.next_at)) : null;
  }
}

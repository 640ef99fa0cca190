import type { Sql } from '../../store/database.ts';
import { int } from './rows.ts';

export interface DownCount {
  down: number;
  total: number;
}

/**
 * A linked monitor counts as down when it is active, its stored health is down and no window in progress
 * covers it - the same rule as the derived `currentStatus: down`.
 */
const IS_DOWN = `(m.active = 1 AND m.health = 'down' AND NOT EXISTS (
  SELECT 1 FROM maintenance_monitors mm JOIN maintenance_windows w ON w.id = mm.window_id
  WHERE mm.monitor_id = m.id AND w.status = 'in_progress'))`;

/** How many monitors are down, per status page or per organization: the input of automatic incident severity. */
export class HealthCountRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  /** One count per status page that links the monitor. */
  async pagesOf(monitorId: string): Promise<DownCount[]> {
    return (await this.db.all(`SELECT COUNT(*) AS total, SUM(CASE WHEN ${IS_DOWN} THEN 1 ELSE 0 END) AS down
         FROM status_page_monitors l JOIN monitors m ON m.id = l.monitor_id
         WHERE l.page_id IN (SELECT page_id FROM status_page_monitors WHERE monitor_id = ?)
         GROUP BY l.page_id`, monitorId))
      .map((row) => ({ down: int(row, 'down'), total: int(row, 'total') }));
  }

  async organization(organizationId: string): Promise<DownCount> {
    const row = await this.db.get(`SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN ${IS_DOWN} THEN 1 ELSE 0 END), 0) AS down FROM monitors m WHERE m.organization_id = ?`, organizationId);
    return row ? { down: int(row, 'down'), total: int(row, 'total') } : { down: 0, total: 0 };
  }
}

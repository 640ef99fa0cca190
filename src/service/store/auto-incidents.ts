import type { Sql } from '../../store/database.ts';
import { text } from './rows.ts';

/** Which incident the engine opened for a monitor that went down; the link goes when the monitor recovers. */
export class AutoIncidentRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  /** The incident linked to the monitor, if any (it may have been resolved by hand since). */
  async linkedIncident(monitorId: string): Promise<string | null> {
    const row = await this.db.get('SELECT incident_id FROM monitor_auto_incidents WHERE monitor_id = ?', monitorId);
    return row ? text(row, 'incident_id') : null;
  }

  async link(monitorId: string, incidentId: string): Promise<void> {
    await this.db.run(`INSERT INTO monitor_auto_incidents (monitor_id, incident_id) VALUES (?, ?)
         ON CONFLICT (monitor_id) DO UPDATE SET incident_id = excluded.incident_id`, monitorId, incidentId);
  }

  async unlink(monitorId: string): Promise<void> {
    await this.db.run('DELETE FROM monitor_auto_incidents WHERE monitor_id = ?', monitorId);
  }
}

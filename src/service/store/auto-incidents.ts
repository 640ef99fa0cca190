import type { Database } from './database.ts';
import { text } from './rows.ts';

/** Which incident the engine opened for a monitor that went down; the link goes when the monitor recovers. */
export class AutoIncidentRepository {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** The incident linked to the monitor, if any (it may have been resolved by hand since). */
  linkedIncident(monitorId: string): string | null {
    const row = this.db.statement('SELECT incident_id FROM monitor_auto_incidents WHERE monitor_id = ?').get(monitorId);
    return row ? text(row, 'incident_id') : null;
  }

  link(monitorId: string, incidentId: string): void {
    this.db
      .statement(
        `INSERT INTO monitor_auto_incidents (monitor_id, incident_id) VALUES (?, ?)
         ON CONFLICT (monitor_id) DO UPDATE SET incident_id = excluded.incident_id`,
      )
      .run(monitorId, incidentId);
  }

  unlink(monitorId: string): void {
    this.db.statement('DELETE FROM monitor_auto_incidents WHERE monitor_id = ?').run(monitorId);
  }
}

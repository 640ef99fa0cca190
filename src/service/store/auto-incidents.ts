import type { Sql } from '../../store/database.ts';
import { text } from './rows.ts';

/**
 * Which incident the engine opened for a monitor that went down; the link goes when the monitor
 * recovers. The link is the claim: a monitor has at most one (its key), so of two processes opening
 * an incident for it at once one inserts the link and the other finds it taken (the unique key
 * makes the second wait for the first's commit under READ COMMITTED) and opens nothing.
 */
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

  /** Drops the monitor's link if its incident was resolved (by hand) meanwhile, so that a new one may be opened. */
  async releaseResolved(monitorId: string): Promise<void> {
    await this.db.run("DELETE FROM monitor_auto_incidents WHERE monitor_id = ? AND incident_id IN (SELECT id FROM incidents WHERE status = 'resolved')", monitorId);
  }

  /** Links the incident to the monitor unless another link holds it; true when this call linked it. */
  async claim(monitorId: string, incidentId: string): Promise<boolean> {
    const row = await this.db.get(
      'INSERT INTO monitor_auto_incidents (monitor_id, incident_id) VALUES (?, ?) ON CONFLICT (monitor_id) DO NOTHING RETURNING monitor_id',
      monitorId,
      incidentId,
    );
    return row !== undefined;
  }

  /** Removes the link to this incident; true when this call removed it (a second caller gets false). */
  async unlink(monitorId: string, incidentId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM monitor_auto_incidents WHERE monitor_id = ? AND incident_id = ?', monitorId, incidentId)).changes > 0;
  }
}

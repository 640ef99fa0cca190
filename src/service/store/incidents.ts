import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  type IncidentSeverity,
  type IncidentStatus,
} from '../../contract/incident.ts';
import { affectedMonitorsOf, replaceAffectedMonitors, type AffectedMonitorRecord } from './affected-monitors.ts';
import type { Sql } from '../../store/database.ts';
import { newId } from '../../store/ids.ts';
import { int, oneOf, placeholders, text, textOrNull, type Row, fromTable } from './rows.ts';

export interface IncidentUpdateRecord {
  id: string;
  status: IncidentStatus;
  message: string;
  createdAt: string;
}

export interface IncidentRecord {
  id: string;
  title: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  startedAt: string;
  resolvedAt: string | null;
  /** Timeline, newest first. */
  updates: IncidentUpdateRecord[];
  monitors: AffectedMonitorRecord[];
  createdAt: string;
  updatedAt: string;
}

export interface NewIncident {
  title: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  message: string;
  monitorIds: readonly string[];
}

function toUpdate(row: Row): IncidentUpdateRecord {
  return fromTable('incident_updates', () => {
    return {
      id: text(row, 'id'),
      status: oneOf(row, 'status', INCIDENT_STATUSES),
      message: text(row, 'message'),
      createdAt: text(row, 'created_at'),
    };
  });
}

export class IncidentRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM incidents WHERE organization_id = ?', organizationId);
    return row ? int(row, 'n') : 0;
  }

  /** Newest first (by startedAt). */
  async list(organizationId: string, page: { limit: number; offset: number }): Promise<IncidentRecord[]> {
    const rows = await this.db.all('SELECT * FROM incidents WHERE organization_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ? OFFSET ?', organizationId, page.limit, page.offset);
    return await this.assemble(rows);
  }

  async get(organizationId: string, id: string): Promise<IncidentRecord | null> {
    const row = await this.db.get('SELECT * FROM incidents WHERE organization_id = ? AND id = ?', organizationId, id);
    return row ? ((await this.assemble([row]))[0] ?? null) : null;
  }

  /** Creates the incident and its first timeline update (from `message`), both at `at`. */
  async insert(organizationId: string, input: NewIncident, at: Date): Promise<IncidentRecord> {
    const id = newId('inc');
    const timestamp = at.toISOString();
    await this.db.run(`INSERT INTO incidents (id, organization_id, title, status, severity, started_at, resolved_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, organizationId, input.title, input.status, input.severity, timestamp, input.status === 'resolved' ? timestamp : null, timestamp, timestamp);
    await this.insertUpdate(id, input.status, input.message, timestamp);
    await replaceAffectedMonitors(this.db, 'incident', id, input.monitorIds);
    const created = await this.get(organizationId, id);
    if (!created) throw new Error('incident vanished inside its own transaction');
    return created;
  }

  /**
   * Posts a timeline update and moves the incident to its status. Resolving sets resolvedAt
   * (kept if already resolved); any other status clears it, which reopens the incident.
   */
  /**
   * Locks the incident's row until the transaction ends (a write that changes nothing): a second
   * process updating it waits, then reads what this one wrote, so "was it already resolved" is
   * answered once under READ COMMITTED. False when the organization has no such incident.
   */
  async lock(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.run('UPDATE incidents SET updated_at = updated_at WHERE organization_id = ? AND id = ?', organizationId, id)).changes > 0;
  }

  async addUpdate(organizationId: string, id: string, input: { status: IncidentStatus; message: string }, at: Date): Promise<IncidentRecord | null> {
    const timestamp = at.toISOString();
    const result = (await this.db.run(`UPDATE incidents SET status = ?, updated_at = ?,
           resolved_at = CASE WHEN ? = 'resolved' THEN COALESCE(resolved_at, ?) ELSE NULL END
         WHERE organization_id = ? AND id = ?`, input.status, timestamp, input.status, timestamp, organizationId, id));
    if (result.changes === 0) return null;
    await this.insertUpdate(id, input.status, input.message, timestamp);
    return await this.get(organizationId, id);
  }

  /** Deletes the incident; its updates and monitor links cascade. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM incidents WHERE organization_id = ? AND id = ?', organizationId, id)).changes > 0;
  }

  async countUpdates(id: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM incident_updates WHERE incident_id = ?', id);
    return row ? int(row, 'n') : 0;
  }

  private async insertUpdate(incidentId: string, status: IncidentStatus, message: string, timestamp: string): Promise<void> {
    await this.db.run('INSERT INTO incident_updates (id, incident_id, status, message, created_at) VALUES (?, ?, ?, ?, ?)', newId('upd'), incidentId, status, message, timestamp);
  }

  private async assemble(rows: readonly Row[]): Promise<IncidentRecord[]> {
    const ids = rows.map((row) => text(row, 'id'));
    const updates = await this.updatesOf(ids);
    const monitors = await affectedMonitorsOf(this.db, 'incident', ids);
    return rows.map((row) => {
      const id = text(row, 'id');
      return {
        id,
        title: text(row, 'title'),
        status: oneOf(row, 'status', INCIDENT_STATUSES),
        severity: oneOf(row, 'severity', INCIDENT_SEVERITIES),
        startedAt: text(row, 'started_at'),
        resolvedAt: textOrNull(row, 'resolved_at'),
        updates: updates.get(id) ?? [],
        monitors: monitors.get(id) ?? [],
        createdAt: text(row, 'created_at'),
        updatedAt: text(row, 'updated_at'),
      };
    });
  }

  private async updatesOf(incidentIds: readonly string[]): Promise<Map<string, IncidentUpdateRecord[]>> {
    const byIncident = new Map<string, IncidentUpdateRecord[]>();
    if (incidentIds.length === 0) return byIncident;
    const rows = (await this.db.all(`SELECT * FROM incident_updates WHERE incident_id IN (${placeholders(incidentIds.length)})
         ORDER BY created_at DESC, rowid DESC`, ...incidentIds));
    for (const row of rows) {
      const incidentId = text(row, 'incident_id');
      const list = byIncident.get(incidentId);
      if (list) list.push(toUpdate(row));
      else byIncident.set(incidentId, [toUpdate(row)]);
    }
    return byIncident;
  }
}

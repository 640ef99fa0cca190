import { ColumnChanges, updateOwnedRow } from './partial-update.ts';
import { MAINTENANCE_STATUSES, type MaintenanceStatus } from '../../contract/maintenance.ts';
import { affectedMonitorsOf, replaceAffectedMonitors, type AffectedMonitorRecord } from './affected-monitors.ts';
import type { Sql } from '../../store/database.ts';
import type { SqlParam } from '../../store/rows.ts';
import { newId } from '../../store/ids.ts';
import { int, oneOf, text, textOrNull, type Row } from './rows.ts';

export interface MaintenanceRecord {
  id: string;
  title: string;
  description: string | null;
  status: MaintenanceStatus;
  scheduledStart: string;
  scheduledEnd: string;
  startedAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
  monitorIds: string[];
  monitors: AffectedMonitorRecord[];
  createdAt: string;
  updatedAt: string;
}

/** Timestamps are ISO 8601 UTC strings, already normalised by the caller. */
export interface NewMaintenance {
  title: string;
  description: string | null;
  scheduledStart: string;
  scheduledEnd: string;
  monitorIds: readonly string[];
}

export type MaintenanceChanges = Partial<NewMaintenance>;

/** Each transition target and the column that records when it happened. */
const TRANSITION_COLUMNS = {
  in_progress: 'started_at',
  completed: 'completed_at',
  cancelled: 'cancelled_at',
} as const;
export type MaintenanceTransition = keyof typeof TRANSITION_COLUMNS;

/** A window whose scheduled time has come: start it (`in_progress`) or complete it (`completed`). */
export interface DueTransition {
  organizationId: string;
  id: string;
  to: 'in_progress' | 'completed';
}

export class MaintenanceRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM maintenance_windows WHERE organization_id = ?', organizationId);
    return row ? int(row, 'n') : 0;
  }

  /** Latest scheduled start first. */
  async list(organizationId: string, page: { limit: number; offset: number }): Promise<MaintenanceRecord[]> {
    const rows = await this.db.all('SELECT * FROM maintenance_windows WHERE organization_id = ? ORDER BY scheduled_start DESC, rowid DESC LIMIT ? OFFSET ?', organizationId, page.limit, page.offset);
    return await this.assemble(rows);
  }

  async get(organizationId: string, id: string): Promise<MaintenanceRecord | null> {
    const row = await this.db.get('SELECT * FROM maintenance_windows WHERE organization_id = ? AND id = ?', organizationId, id);
    return row ? ((await this.assemble([row]))[0] ?? null) : null;
  }

  /** New windows are `scheduled`. */
  async insert(organizationId: string, input: NewMaintenance, now: Date): Promise<MaintenanceRecord> {
    const id = newId('mnt');
    const timestamp = now.toISOString();
    await this.db.run(`INSERT INTO maintenance_windows (id, organization_id, title, description, status, scheduled_start, scheduled_end,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, 'scheduled', ?, ?, ?, ?)`, id, organizationId, input.title, input.description, input.scheduledStart, input.scheduledEnd, timestamp, timestamp);
    await replaceAffectedMonitors(this.db, 'maintenance', id, input.monitorIds);
    const created = await this.get(organizationId, id);
    if (!created) throw new Error('maintenance window vanished inside its own transaction');
    return created;
  }

  /**
   * Locks the window's row until the transaction ends (a write that changes nothing): a transition
   * by another process waits, so a status read after it stays true until this transaction ends
   * (PATCH and DELETE, allowed on scheduled windows only). False when there is no such window.
   */
  async lock(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.run('UPDATE maintenance_windows SET updated_at = updated_at WHERE organization_id = ? AND id = ?', organizationId, id)).changes > 0;
  }

  async update(organizationId: string, id: string, changes: MaintenanceChanges, now: Date): Promise<MaintenanceRecord | null> {
    const columns = new ColumnChanges();
    const set = (column: string, value: SqlParam): void => columns.set(column, value);
    if (changes.title !== undefined) set('title', changes.title);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.scheduledStart !== undefined) set('scheduled_start', changes.scheduledStart);
    if (changes.scheduledEnd !== undefined) set('scheduled_end', changes.scheduledEnd);
    if (!await updateOwnedRow(this.db, 'maintenance_windows', organizationId, id, columns, now)) return null;
    if (changes.monitorIds !== undefined) await replaceAffectedMonitors(this.db, 'maintenance', id, changes.monitorIds);
    return await this.get(organizationId, id);
  }

  /**
   * Moves the window to `to` and stamps the matching timestamp, only while it is still in `from`
   * (a guarded update: of two processes moving it at once, one does, the other changes nothing and
   * gets null). Without `from` (the demo seeder) the move is unconditional.
   */
  async transition(organizationId: string, id: string, to: MaintenanceTransition, at: Date, from?: MaintenanceStatus): Promise<MaintenanceRecord | null> {
    const timestamp = at.toISOString();
    const guard = from === undefined ? '' : ' AND status = ?';
    const result = await this.db.run(
      `UPDATE maintenance_windows SET status = ?, ${TRANSITION_COLUMNS[to]} = ?, updated_at = ? WHERE organization_id = ? AND id = ?${guard}`,
      to, timestamp, timestamp, organizationId, id, ...(from === undefined ? [] : [from]),
    );
    return result.changes === 0 ? null : await this.get(organizationId, id);
  }

  /**
   * Windows due at `at` across organizations: scheduled ones whose start has come, in oldest-first order,
   * then in-progress ones whose end has come. Timestamps are stored as UTC ISO strings, so text order is time order.
   */
  async due(at: Date): Promise<DueTransition[]> {
    const now = at.toISOString();
    const toStart = (await this.db.all(`SELECT organization_id, id FROM maintenance_windows WHERE status = 'scheduled' AND scheduled_start <= ? ORDER BY scheduled_start, rowid`, now))
      .map((row) => ({ organizationId: text(row, 'organization_id'), id: text(row, 'id'), to: 'in_progress' as const }));
    const toComplete = (await this.db.all(`SELECT organization_id, id FROM maintenance_windows WHERE status = 'in_progress' AND scheduled_end <= ? ORDER BY scheduled_end, rowid`, now))
      .map((row) => ({ organizationId: text(row, 'organization_id'), id: text(row, 'id'), to: 'completed' as const }));
    return [...toStart, ...toComplete];
  }

  /** The next scheduled start or end of a live window, across organizations; null when none is pending. */
  async nextDueAt(): Promise<string | null> {
    const row = (await this.db.get(`SELECT MIN(due) AS next FROM (
           SELECT MIN(scheduled_start) AS due FROM maintenance_windows WHERE status = 'scheduled'
           UNION ALL SELECT MIN(scheduled_end) FROM maintenance_windows WHERE status = 'in_progress') AS due_times`));
    return row ? textOrNull(row, 'next') : null;
  }

  /** Deletes the window; its monitor links cascade. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM maintenance_windows WHERE organization_id = ? AND id = ?', organizationId, id)).changes > 0;
  }

  private async assemble(rows: readonly Row[]): Promise<MaintenanceRecord[]> {
    const monitors = await affectedMonitorsOf(this.db, 'maintenance', rows.map((row) => text(row, 'id')));
    return rows.map((row) => {
      const id = text(row, 'id');
      const affected = monitors.get(id) ?? [];
      return {
        id,
        title: text(row, 'title'),
        description: textOrNull(row, 'description'),
        status: oneOf(row, 'status', MAINTENANCE_STATUSES),
        scheduledStart: text(row, 'scheduled_start'),
        scheduledEnd: text(row, 'scheduled_end'),
        startedAt: textOrNull(row, 'started_at'),
        completedAt: textOrNull(row, 'completed_at'),
        cancelledAt: textOrNull(row, 'cancelled_at'),
        monitorIds: affected.map((item) => item.monitor.id),
        monitors: affected,
        createdAt: text(row, 'created_at'),
        updatedAt: text(row, 'updated_at'),
      };
    });
  }
}

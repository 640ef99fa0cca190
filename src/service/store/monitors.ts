import { ColumnChanges, updateOwnedRow } from './partial-update.ts';
import { z } from 'zod';
import {
  CHECK_STATUSES,
  MONITOR_STATUSES,
  MONITOR_TYPES,
  REGIONS,
  ruleSchema,
  type CheckStatus,
  type CreateMonitor,
  type MonitorStatus,
  type MonitorType,
  type Region,
  type Rule,
  type updateMonitorSchema,
} from '../../contract/monitor.ts';
import type { Sql } from '../../store/database.ts';
import type { SqlParam } from '../../store/rows.ts';
import { newId } from '../../store/ids.ts';
import { bit, flag, int, intOrNull, json, oneOf, oneOfOrNull, placeholders, text, textOrNull, type Row, fromTable } from './rows.ts';

/** Stored health of the latest evaluation; `paused` and `maintenance` are derived when read. */
export const MONITOR_HEALTH = ['pending', 'up', 'down', 'degraded'] as const;
export type MonitorHealth = (typeof MONITOR_HEALTH)[number];

export interface MonitorRecord {
  id: string;
  name: string;
  type: MonitorType;
  active: boolean;
  interval: number;
  timeout: number;
  url: string | null;
  host: string | null;
  port: number | null;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  regions: Region[];
  autoIncidents: boolean;
  rules: Rule[];
  currentStatus: MonitorStatus;
  lastStatus: CheckStatus | null;
  lastLatency: number | null;
  lastCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type MonitorChanges = z.output<typeof updateMonitorSchema> & { health?: MonitorHealth };

/** State a monitor starts with; the demo seeder sets it, the API leaves the defaults. */
export interface MonitorInitialState {
  health?: MonitorHealth;
  lastStatus?: CheckStatus | null;
  lastLatency?: number | null;
  lastCheckedAt?: string | null;
  createdAt?: string;
  /** Demo monitors with made-up targets are never checked by the engine. */
  simulated?: boolean;
}

/** What the engine needs beyond the API view: owner, stored health and failure streak. */
export interface MonitorState {
  monitor: MonitorRecord;
  organizationId: string;
  health: MonitorHealth;
  consecutiveFailures: number;
  simulated: boolean;
}

/** A monitor the scheduler should run: active and not simulated. */
export interface SchedulableMonitor {
  id: string;
  organizationId: string;
  interval: number;
  regions: Region[];
}

/** A check's effect on the monitor: latest check fields plus the health computed from the streak. */
export interface CheckEffect {
  status: CheckStatus;
  latency: number;
  checkedAt: string;
  health: MonitorHealth;
  consecutiveFailures: number;
}

const headersJson = z.record(z.string(), z.string());
const regionsJson = z.array(z.enum(REGIONS));
const rulesJson = z.array(ruleSchema);

/**
 * currentStatus is derived: inactive monitors are `paused`, monitors in an in-progress
 * maintenance window are `maintenance`, otherwise the stored health.
 */
const SELECT_MONITOR = `
  SELECT m.*,
    CASE
      WHEN m.active = 0 THEN 'paused'
      WHEN EXISTS (
        SELECT 1 FROM maintenance_monitors mm JOIN maintenance_windows w ON w.id = mm.window_id
        WHERE mm.monitor_id = m.id AND w.status = 'in_progress'
      ) THEN 'maintenance'
      ELSE m.health
    END AS current_status
  FROM monitors m`;

function toMonitor(row: Row): MonitorRecord {
  return fromTable('monitors', () => {
    return {
      id: text(row, 'id'),
      name: text(row, 'name'),
      type: oneOf(row, 'type', MONITOR_TYPES),
      active: flag(row, 'active'),
      interval: int(row, 'interval_seconds'),
      timeout: int(row, 'timeout_seconds'),
      url: textOrNull(row, 'url'),
      host: textOrNull(row, 'host'),
      port: intOrNull(row, 'port'),
      method: text(row, 'method'),
      headers: json(row, 'headers_json', headersJson),
      body: textOrNull(row, 'body'),
      regions: json(row, 'regions_json', regionsJson),
      autoIncidents: flag(row, 'auto_incidents'),
      rules: json(row, 'rules_json', rulesJson),
      currentStatus: oneOf(row, 'current_status', MONITOR_STATUSES),
      lastStatus: oneOfOrNull(row, 'last_status', CHECK_STATUSES),
      lastLatency: intOrNull(row, 'last_latency'),
      lastCheckedAt: textOrNull(row, 'last_checked_at'),
      createdAt: text(row, 'created_at'),
      updatedAt: text(row, 'updated_at'),
    };
  });
}

export class MonitorRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM monitors WHERE organization_id = ?', organizationId);
    return row ? int(row, 'n') : 0;
  }

  /** Oldest first (creation order). */
  async list(organizationId: string, page: { limit: number; offset: number }): Promise<MonitorRecord[]> {
    return (await this.db.all(`${SELECT_MONITOR} WHERE m.organization_id = ? ORDER BY m.created_at, m.rowid LIMIT ? OFFSET ?`, organizationId, page.limit, page.offset))
      .map(toMonitor);
  }

  async get(organizationId: string, id: string): Promise<MonitorRecord | null> {
    const row = await this.db.get(`${SELECT_MONITOR} WHERE m.organization_id = ? AND m.id = ?`, organizationId, id);
    return row ? toMonitor(row) : null;
  }

  /** Names of those of `ids` that belong to the organization (unknown ids are absent). */
  async names(organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (ids.length === 0) return names;
    const unique = [...new Set(ids)];
    const rows = await this.db.all(`SELECT id, name FROM monitors WHERE organization_id = ? AND id IN (${placeholders(unique.length)})`, organizationId, ...unique);
    for (const row of rows) names.set(text(row, 'id'), text(row, 'name'));
    return names;
  }

  async insert(organizationId: string, input: CreateMonitor, now: Date, initial: MonitorInitialState = {}): Promise<MonitorRecord> {
    const id = newId('mon');
    const createdAt = initial.createdAt ?? now.toISOString();
    await this.db.run(`INSERT INTO monitors (id, organization_id, name, type, active, interval_seconds, timeout_seconds, url, host, port,
           method, headers_json, body, regions_json, auto_incidents, rules_json, health, last_status, last_latency,
           last_checked_at, simulated, created_at, updated_at)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id,
        organizationId,
        input.name,
        input.type,
        input.interval,
        input.timeout,
        input.url ?? null,
        input.host ?? null,
        input.port ?? null,
        input.method,
        JSON.stringify(input.headers),
        input.body ?? null,
        JSON.stringify(input.regions),
        bit(input.autoIncidents),
        JSON.stringify(input.rules),
        initial.health ?? 'pending',
        initial.lastStatus ?? null,
        initial.lastLatency ?? null,
        initial.lastCheckedAt ?? null,
        bit(initial.simulated ?? false),
        createdAt,
        createdAt,);
    const created = await this.get(organizationId, id);
    if (!created) throw new Error('monitor vanished inside its own transaction');
    return created;
  }

  /** Applies only the given fields; returns null when the monitor is not the organization's. */
  async update(organizationId: string, id: string, changes: MonitorChanges, now: Date): Promise<MonitorRecord | null> {
    const columns = new ColumnChanges();
    const set = (column: string, value: SqlParam): void => columns.set(column, value);
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.url !== undefined) set('url', changes.url);
    if (changes.host !== undefined) set('host', changes.host);
    if (changes.port !== undefined) set('port', changes.port);
    if (changes.interval !== undefined) set('interval_seconds', changes.interval);
    if (changes.timeout !== undefined) set('timeout_seconds', changes.timeout);
    if (changes.method !== undefined) set('method', changes.method);
    if (changes.headers !== undefined) set('headers_json', JSON.stringify(changes.headers));
    if (changes.body !== undefined) set('body', changes.body);
    if (changes.regions !== undefined) set('regions_json', JSON.stringify(changes.regions));
    if (changes.autoIncidents !== undefined) set('auto_incidents', bit(changes.autoIncidents));
    if (changes.rules !== undefined) set('rules_json', JSON.stringify(changes.rules));
    if (changes.active !== undefined) set('active', bit(changes.active));
    if (changes.health !== undefined) set('health', changes.health);
    if (changes.health === 'pending') set('consecutive_failures', 0);
    const retargeted = changes.url !== undefined || changes.host !== undefined || changes.port !== undefined;
    // A target chosen through the API is a real one: the monitor stops being a simulated demo monitor.
    if (retargeted) set('simulated', 0);
    if (!await updateOwnedRow(this.db, 'monitors', organizationId, id, columns, now)) return null;
    if (retargeted) (await this.db.run('DELETE FROM demo_local_targets WHERE monitor_id = ?', id));
    return await this.get(organizationId, id);
  }

  /**
   * Locks the monitor's row until the transaction ends (a write that changes nothing, which both
   * dialects accept, unlike `SELECT … FOR UPDATE`): another process recording a check of the same
   * monitor waits, then reads what this one wrote, so a failure streak is never lost under READ
   * COMMITTED. False when there is no such monitor.
   */
  async lock(id: string): Promise<boolean> {
    return (await this.db.run('UPDATE monitors SET consecutive_failures = consecutive_failures WHERE id = ?', id)).changes > 0;
  }

  /** The monitor with its engine state, whatever its organization (the engine works across all). */
  async getState(id: string): Promise<MonitorState | null> {
    const row = await this.db.get(`${SELECT_MONITOR} WHERE m.id = ?`, id);
    if (!row) return null;
    return {
      monitor: toMonitor(row),
      organizationId: text(row, 'organization_id'),
      health: oneOf(row, 'health', MONITOR_HEALTH),
      consecutiveFailures: int(row, 'consecutive_failures'),
      simulated: flag(row, 'simulated'),
    };
  }

  /** Every monitor the scheduler should run, across organizations. */
  async schedulable(): Promise<SchedulableMonitor[]> {
    return (await this.db.all('SELECT id, organization_id, interval_seconds, regions_json FROM monitors WHERE active = 1 AND simulated = 0 ORDER BY rowid'))
      .map((row) => ({
        id: text(row, 'id'),
        organizationId: text(row, 'organization_id'),
        interval: int(row, 'interval_seconds'),
        regions: json(row, 'regions_json', regionsJson),
      }));
  }

  /** Records a check as the monitor's latest state, with the health the engine computed. */
  async recordCheck(id: string, effect: CheckEffect): Promise<void> {
    await this.db.run('UPDATE monitors SET health = ?, consecutive_failures = ?, last_status = ?, last_latency = ?, last_checked_at = ? WHERE id = ?', effect.health, effect.consecutiveFailures, effect.status, effect.latency, effect.checkedAt, id);
  }

  /** Deletes the monitor; its checks, page links and incident/maintenance links cascade. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM monitors WHERE organization_id = ? AND id = ?', organizationId, id)).changes > 0;
  }
}

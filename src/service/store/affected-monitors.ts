import type { Sql } from '../../store/database.ts';
import { placeholders, text } from './rows.ts';

export interface AffectedMonitorRecord {
  monitor: { id: string; name: string };
}

/** The two link tables that tie a record to the monitors it affects. */
const LINK_TABLES = {
  incident: { table: 'incident_monitors', owner: 'incident_id' },
  maintenance: { table: 'maintenance_monitors', owner: 'window_id' },
} as const;

export type AffectedKind = keyof typeof LINK_TABLES;

/** Affected monitors of each owner id, in monitor creation order. */
export async function affectedMonitorsOf(db: Sql, kind: AffectedKind, ownerIds: readonly string[]): Promise<Map<string, AffectedMonitorRecord[]>> {
  const byOwner = new Map<string, AffectedMonitorRecord[]>();
  if (ownerIds.length === 0) return byOwner;
  const { table, owner } = LINK_TABLES[kind];
  const rows = (await db.all(`SELECT l.${owner} AS owner_id, m.id, m.name FROM ${table} l JOIN monitors m ON m.id = l.monitor_id
       WHERE l.${owner} IN (${placeholders(ownerIds.length)}) ORDER BY m.created_at, m.rowid`, ...ownerIds));
  for (const row of rows) {
    const item = { monitor: { id: text(row, 'id'), name: text(row, 'name') } };
    const ownerId = text(row, 'owner_id');
    const list = byOwner.get(ownerId);
    if (list) list.push(item);
    else byOwner.set(ownerId, [item]);
  }
  return byOwner;
}

/** Replaces the set of monitors linked to one owner. */
export async function replaceAffectedMonitors(db: Sql, kind: AffectedKind, ownerId: string, monitorIds: readonly string[]): Promise<void> {
  const { table, owner } = LINK_TABLES[kind];
  await db.run(`DELETE FROM ${table} WHERE ${owner} = ?`, ownerId);
  for (const monitorId of new Set(monitorIds)) await db.run(`INSERT INTO ${table} (${owner}, monitor_id) VALUES (?, ?)`, ownerId, monitorId);
}

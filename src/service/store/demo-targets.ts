import type { Sql } from '../../store/database.ts';
import { text } from './rows.ts';

/** Demo monitors that check real endpoints of this machine: the site, the API itself, a closed TCP port. */
export const DEMO_TARGET_ROLES = ['site', 'api', 'closed_port'] as const;
export type DemoTargetRole = (typeof DEMO_TARGET_ROLES)[number];

export type DemoTarget = { url: string } | { host: string; port: number };

/** Roles of demo monitors and the switch between simulated (never checked) and checked for real. */
export class DemoTargetRepository {
  private readonly db: Sql;

  constructor(db: Sql) {
    this.db = db;
  }

  async assign(monitorId: string, role: DemoTargetRole): Promise<void> {
    await this.db.run('INSERT INTO demo_local_targets (monitor_id, role) VALUES (?, ?)', monitorId, role);
  }

  /** The monitor holding `role`, if the demo still has one (deleting or retargeting it drops the role). */
  async monitorFor(role: DemoTargetRole): Promise<string | null> {
    const row = await this.db.get('SELECT monitor_id FROM demo_local_targets WHERE role = ?', role);
    return row ? text(row, 'monitor_id') : null;
  }

  /** Points the monitor at a local endpoint and lets the engine check it. */
  async pointAt(monitorId: string, target: DemoTarget, now: Date): Promise<void> {
    const at = now.toISOString();
    if ('url' in target) {
      await this.db.run('UPDATE monitors SET url = ?, simulated = 0, updated_at = ? WHERE id = ?', target.url, at, monitorId);
    } else {
      await this.db.run('UPDATE monitors SET host = ?, port = ?, simulated = 0, updated_at = ? WHERE id = ?', target.host, target.port, at, monitorId);
    }
  }

  /** Stops the engine from checking the monitor (its target is not known on this start). */
  async simulate(monitorId: string): Promise<void> {
    await this.db.run('UPDATE monitors SET simulated = 1 WHERE id = ?', monitorId);
  }
}

import type { Database } from './database.ts';
import { text } from './rows.ts';

/** Demo monitors that check real endpoints of this machine: the site, the API itself, a closed TCP port. */
export const DEMO_TARGET_ROLES = ['site', 'api', 'closed_port'] as const;
export type DemoTargetRole = (typeof DEMO_TARGET_ROLES)[number];

export type DemoTarget = { url: string } | { host: string; port: number };

/** Roles of demo monitors and the switch between simulated (never checked) and checked for real. */
export class DemoTargetRepository {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  assign(monitorId: string, role: DemoTargetRole): void {
    this.db.statement('INSERT INTO demo_local_targets (monitor_id, role) VALUES (?, ?)').run(monitorId, role);
  }

  /** The monitor holding `role`, if the demo still has one (deleting or retargeting it drops the role). */
  monitorFor(role: DemoTargetRole): string | null {
    const row = this.db.statement('SELECT monitor_id FROM demo_local_targets WHERE role = ?').get(role);
    return row ? text(row, 'monitor_id') : null;
  }

  /** Points the monitor at a local endpoint and lets the engine check it. */
  pointAt(monitorId: string, target: DemoTarget, now: Date): void {
    const at = now.toISOString();
    if ('url' in target) {
      this.db.statement('UPDATE monitors SET url = ?, simulated = 0, updated_at = ? WHERE id = ?').run(target.url, at, monitorId);
    } else {
      this.db
        .statement('UPDATE monitors SET host = ?, port = ?, simulated = 0, updated_at = ? WHERE id = ?')
        .run(target.host, target.port, at, monitorId);
    }
  }

  /** Stops the engine from checking the monitor (its target is not known on this start). */
  simulate(monitorId: string): void {
    this.db.statement('UPDATE monitors SET simulated = 1 WHERE id = ?').run(monitorId);
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { SERVICE_MIGRATIONS } from '../../src/service/store/migrations.ts';
import { Store } from '../../src/service/store/store.ts';

describe('migration 2 on a demo store seeded before the engine existed', () => {
  const folder = mkdtempSync(join(tmpdir(), 'porchlight-migrate-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('marks the demo monitors and channels simulated and gives the local monitors their roles', async () => {
    const path = join(folder, 'v1.db');
    const db = new DatabaseSync(path);
    db.exec(SERVICE_MIGRATIONS.migrations[0]?.scripts.sqlite ?? '');
    db.exec('PRAGMA user_version = 1');
    const at = '2030-01-01T00:00:00.000Z';
    for (const [id, name] of [['org_demo', 'Acme Cloud'], ['org_real', 'Real']] as const) {
      db.prepare('INSERT INTO organizations (id, name, slug, subscription_active, subscription_plan_name, created_at) VALUES (?, ?, ?, 1, ?, ?)').run(id, name, id, 'Pro', at);
    }
    db.prepare('INSERT INTO demo_meta (organization_id, api_key, created_at) VALUES (?, ?, ?)').run('org_demo', 'pl_demo', at);
    const monitor = db.prepare(
      `INSERT INTO monitors (id, organization_id, name, type, active, interval_seconds, timeout_seconds, url, host, port, method, headers_json,
         regions_json, auto_incidents, rules_json, health, created_at, updated_at)
       VALUES (?, ?, ?, 'http', 1, 60, 10, 'https://x.example', NULL, NULL, 'GET', '{}', '["eu"]', 0, '[]', 'up', ?, ?)`,
    );
    const monitors = [['mon_web', 'org_demo', 'Website'], ['mon_api', 'org_demo', 'Public API'], ['mon_db', 'org_demo', 'Primary database'], ['mon_pay', 'org_demo', 'Payments API'], ['mon_real', 'org_real', 'Website']] as const;
    for (const [id, org, name] of monitors) monitor.run(id, org, name, at, at);
    const flags = 'on_monitor_down, on_monitor_recovered, on_incident_created, on_incident_resolved, on_incident_updated, on_maintenance_scheduled, on_maintenance_started, on_maintenance_completed';
    const channel = db.prepare(
      `INSERT INTO notification_channels (id, organization_id, name, type, webhook_url, enabled, ${flags}, created_at, updated_at)
       VALUES (?, ?, 'ops', 'slack', 'https://hooks.example/x', 1, 1, 1, 1, 1, 1, 1, 1, 1, ?, ?)`,
    );
    channel.run('chn_demo', 'org_demo', at, at);
    channel.run('chn_real', 'org_real', at, at);
    db.close();

    const store = await Store.open(path);
    const simulated = await store.db.all('SELECT id, simulated FROM monitors ORDER BY id');
    expect(simulated).toEqual([
      { id: 'mon_api', simulated: 1 },
      { id: 'mon_db', simulated: 1 },
      { id: 'mon_pay', simulated: 1 },
      { id: 'mon_real', simulated: 0 },
      { id: 'mon_web', simulated: 1 },
    ]);
    expect(await store.db.all('SELECT id, simulated FROM notification_channels ORDER BY id')).toEqual([
      { id: 'chn_demo', simulated: 1 },
      { id: 'chn_real', simulated: 0 },
    ]);
    expect([await store.demoTargets.monitorFor('site'), await store.demoTargets.monitorFor('api'), await store.demoTargets.monitorFor('closed_port')]).toEqual(['mon_web', 'mon_api', 'mon_db']);
    expect((await store.monitors.schedulable()).map((item) => item.id)).toEqual(['mon_real']);
    await store.close();
  });
});

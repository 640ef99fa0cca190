import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrganization, startService } from '../../src/service/index.ts';
import { Database } from '../../src/service/store/database.ts';
import { StoreVersionError } from '../../src/service/store/errors.ts';
import { MIGRATIONS, SCHEMA_VERSION, schemaVersion } from '../../src/service/store/migrations.ts';
import { Store } from '../../src/service/store/store.ts';
import { Client, httpMonitor, idOf } from './helpers.ts';

describe('persistence in a database file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'porchlight-service-'));
  const databasePath = join(folder, 'nested', 'porchlight.db');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads back exactly what was written before a restart', async () => {
    mkdirSync(join(folder, 'nested'));
    const quiet = { databasePath, log: () => undefined, scheduler: false, notifications: { deliver: false } };
    const first = await startService(quiet);
    const { apiKey } = createOrganization(first.store, { name: 'Persist', plan: 'free' });
    const client = new Client(first.url, apiKey);
    const monitor = idOf(await client.post('/monitors', httpMonitor({ rules: [{ type: 'status_code', operator: 'eq', value: 204 }], headers: { A: 'b' } })));
    await client.post('/monitors', { name: 'TCP', type: 'tcp', host: 'db.example.com', port: 5432 });
    first.store.checks.insert({ monitorId: monitor, status: 'down', latency: 1234, statusCode: 503, region: 'eu', checkedAt: '2030-01-01T00:00:00.000Z', error: 'HTTP 503' });
    await client.post('/status-pages', { name: 'Page', slug: 'page', customDomain: 'status.example.com', headerText: '<b>x</b>', monitors: [{ monitorId: monitor, displayName: 'Site' }] });
    const incident = idOf(await client.post('/incidents', { monitorIds: [monitor], title: 'Down', message: 'a' }));
    await client.patch(`/incidents/${incident}`, { status: 'resolved', message: 'b' });
    const window = idOf(await client.post('/maintenance', { title: 'W', scheduledStart: '2030-01-01T00:00:00Z', scheduledEnd: '2030-01-01T01:00:00Z', monitorIds: [monitor] }));
    await client.post(`/maintenance/${window}/start`);
    await client.post('/notifications', { name: 'Mail', type: 'email', recipientEmail: 'a@example.com', onMonitorDown: false });
    const paths = ['/organization', '/monitors', `/monitors/${monitor}/checks`, '/status-pages', '/incidents', '/maintenance', '/notifications'];
    const before = await Promise.all(paths.map(async (path) => (await client.get(path)).json));
    await first.close();

    const second = await startService(quiet);
    const again = new Client(second.url, apiKey);
    const after = await Promise.all(paths.map(async (path) => (await again.get(path)).json));
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).toContain('"currentStatus":"maintenance"');
    // Only the hash of the key is on disk.
    const stored = second.store.db.connection.prepare('SELECT key_hash FROM api_keys').all();
    expect(JSON.stringify(stored)).not.toContain(apiKey);
    expect(second.store.db.connection.prepare('PRAGMA journal_mode').get()?.journal_mode).toBe('wal');
    expect(second.store.db.connection.prepare('PRAGMA foreign_keys').get()?.foreign_keys).toBe(1);
    expect(schemaVersion(second.store.db)).toBe(SCHEMA_VERSION);
    await second.close();
  });

  it('keeps the database, its -wal and its -shm readable by their owner only', () => {
    const path = join(folder, 'private.db');
    const store = Store.open(path);
    try {
      store.organizations.create({ name: 'Private', plan: 'free' }, new Date());
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(statSync(file).mode & 0o777, file).toBe(0o600);
      }
    } finally {
      store.close();
    }
  });

  it('narrows the mode of a database file an older version left readable by all', () => {
    const path = join(folder, 'older.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    Store.open(path).close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a database written by a newer schema', () => {
    const path = join(folder, 'future.db');
    const db = new Database(path);
    db.connection.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => Store.open(path)).toThrow(StoreVersionError);
  });

  it('records each migration in schema_migrations, as the storage floor does, and refuses a newer record before writing', () => {
    const path = join(folder, 'recorded.db');
    Store.open(path).close();
    const db = new Database(path);
    const versions = db.connection.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all();
    expect(versions.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
    for (const row of versions) expect(row.applied_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(db.connection.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    db.connection.prepare("INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, 'later', '2030-01-01T00:00:00.000Z')").run(SCHEMA_VERSION + 1);
    db.close();
    expect(() => Store.open(path)).toThrow(`the API database is at schema version ${SCHEMA_VERSION + 1}, newer than this Porchlight knows (${SCHEMA_VERSION})`);
  });
});

describe('row decoding', () => {
  it('is strict, and a bad value names its table and column, as the storage floor does', () => {
    const store = Store.open(':memory:');
    const { organizationId } = createOrganization(store, { name: 'Rows', plan: 'free' });
    store.db.connection.prepare("UPDATE organizations SET subscription_active = 'yes' WHERE id = ?").run(organizationId);
    expect(() => store.organizations.get(organizationId)).toThrow('organizations.subscription_active: expected integer, found string');
    store.close();
  });
});

describe('transactions', () => {
  it('roll back every write when the work throws', () => {
    const store = Store.open(':memory:');
    const { organizationId } = createOrganization(store, { name: 'Tx', plan: 'free' });
    expect(() =>
      store.transaction(() => {
        store.notifications.insert(organizationId, { name: 'n', type: 'email', recipientEmail: 'a@example.com', enabled: true, onMonitorDown: true, onMonitorRecovered: true, onIncidentCreated: true, onIncidentResolved: true, onIncidentUpdated: true, onMaintenanceScheduled: true, onMaintenanceStarted: true, onMaintenanceCompleted: true }, new Date());
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.notifications.count(organizationId)).toBe(0);
    expect(store.db.connection.isTransaction).toBe(false);
    store.close();
  });

  it('undo only the inner part of a failed nested transaction', () => {
    const store = Store.open(':memory:');
    store.transaction(() => {
      createOrganization(store, { name: 'Outer', plan: 'free' });
      expect(() =>
        store.transaction(() => {
          createOrganization(store, { name: 'Inner', plan: 'free' });
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(store.organizations.count()).toBe(1);
    store.close();
  });

  it('enforce foreign keys', () => {
    const store = Store.open(':memory:');
    expect(() => store.checks.insert({ monitorId: 'mon_missing', status: 'up', latency: 1, statusCode: null, region: 'eu', checkedAt: new Date().toISOString(), error: null })).toThrow(/FOREIGN KEY/);
    store.close();
  });
});

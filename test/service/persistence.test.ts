import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrganization, startService } from '../../src/service/index.ts';
import { SERVICE_MIGRATIONS } from '../../src/service/store/migrations.ts';
import { Store } from '../../src/service/store/store.ts';
import type { DialectName } from '../../src/store/database.ts';
import { StoreDataError, StoreVersionError } from '../../src/store/errors.ts';
import type { StoreLocation } from '../../src/store/location.ts';
import { latestVersion, schemaVersion } from '../../src/store/migrations.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';
import { Client, httpMonitor, idOf } from './helpers.ts';

const dialects = useDialects();
const folder = mkdtempSync(join(tmpdir(), 'porchlight-service-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const LATEST = latestVersion(SERVICE_MIGRATIONS);
let files = 0;

/** A place a store can be opened at twice: a SQLite file, or a fresh PostgreSQL schema. */
const reopenable = (dialect: DialectName): StoreLocation =>
  dialect === 'sqlite' ? { dialect: 'sqlite', path: join(folder, `store-${++files}.db`) } : dialects.location('postgres');
const serviceAt = (location: StoreLocation) =>
  location.dialect === 'sqlite'
    ? { databasePath: location.path }
    : { databasePath: join(folder, 'unused.db'), databaseUrl: location.url };

describe.each(DIALECTS)('the embedded API store on %s', (dialect) => {
  it('reads back exactly what was written before a restart', async () => {
    const location = reopenable(dialect);
    // A PostgreSQL schema of its own: the service's is `service`, a test's is fresh (see useDialects).
    const quiet = { ...serviceAt(location), log: () => undefined, scheduler: false, notifications: { deliver: false } };
    const open = async () => (location.dialect === 'postgres' ? startWithSchema(quiet, location) : startService(quiet));
    const first = await open();
    const { apiKey } = await createOrganization(first.store, { name: 'Persist', plan: 'free' });
    const client = new Client(first.url, apiKey);
    const monitor = idOf(await client.post('/monitors', httpMonitor({ rules: [{ type: 'status_code', operator: 'eq', value: 204 }], headers: { A: 'b' } })));
    await client.post('/monitors', { name: 'TCP', type: 'tcp', host: 'db.example.com', port: 5432 });
    await first.store.checks.insert({ monitorId: monitor, status: 'down', latency: 1234, statusCode: 503, region: 'eu', checkedAt: '2030-01-01T00:00:00.000Z', error: 'HTTP 503' });
    await client.post('/status-pages', { name: 'Page', slug: 'page', customDomain: 'status.example.com', headerText: '<b>x</b>', monitors: [{ monitorId: monitor, displayName: 'Site' }] });
    const incident = idOf(await client.post('/incidents', { monitorIds: [monitor], title: 'Down', message: 'a' }));
    await client.patch(`/incidents/${incident}`, { status: 'resolved', message: 'b' });
    const window = idOf(await client.post('/maintenance', { title: 'W', scheduledStart: '2030-01-01T00:00:00Z', scheduledEnd: '2030-01-01T01:00:00Z', monitorIds: [monitor] }));
    await client.post(`/maintenance/${window}/start`);
    await client.post('/notifications', { name: 'Mail', type: 'email', recipientEmail: 'a@example.com', onMonitorDown: false });
    const paths = ['/organization', '/monitors', `/monitors/${monitor}/checks`, '/status-pages', '/incidents', '/maintenance', '/notifications'];
    const before = await Promise.all(paths.map(async (path) => (await client.get(path)).json));
    await first.close();

    const second = await open();
    const again = new Client(second.url, apiKey);
    const after = await Promise.all(paths.map(async (path) => (await again.get(path)).json));
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).toContain('"currentStatus":"maintenance"');
    // Only the hash of the key is stored.
    expect(JSON.stringify(await second.store.db.all('SELECT key_hash FROM api_keys'))).not.toContain(apiKey);
    expect(await schemaVersion(second.store.db)).toBe(LATEST);
    await second.close();
  });

  it('records each migration in schema_migrations and refuses a newer record before writing', async () => {
    const location = reopenable(dialect);
    const store = await Store.open(location);
    const versions = await store.db.all('SELECT version, applied_at FROM schema_migrations ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual(SERVICE_MIGRATIONS.migrations.map((migration) => migration.version));
    for (const row of versions) expect(row.applied_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await store.db.run("INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, 'later', '2030-01-01T00:00:00.000Z')", LATEST + 1);
    await store.close();
    await expect(Store.open(location)).rejects.toThrow(`the API database is at schema version ${LATEST + 1}, newer than this Porchlight knows (${LATEST})`);
  });

  it('reads rows strictly: a bad value names its table and column', async () => {
    const store = await Store.open(dialects.location(dialect));
    const { organizationId } = await createOrganization(store, { name: 'Rows', plan: 'free' });
    // A column the code reads as one of a list: a value outside it fails where it is read, on either dialect.
    await store.db.run("UPDATE organizations SET subscription_plan_name = 'Pro', slug = 'rows' WHERE id = ?", organizationId);
    await store.db.run("INSERT INTO incidents (id, organization_id, title, status, severity, started_at, created_at, updated_at) VALUES ('inc_bad', ?, 't', 'investigating', 'minor', ?, ?, ?)", organizationId, '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.000Z');
    await store.db.run("INSERT INTO incident_updates (id, incident_id, status, message, created_at) VALUES ('upd_bad', 'inc_bad', 'sleeping', 'm', ?)", '2030-01-01T00:00:00.000Z');
    await expect(store.incidents.get(organizationId, 'inc_bad')).rejects.toThrow(StoreDataError);
    await expect(store.incidents.get(organizationId, 'inc_bad')).rejects.toThrow('incident_updates.status');
    await store.close();
  });

  it('rolls back every write of a transaction whose work throws', async () => {
    const store = await Store.open(dialects.location(dialect));
    const { organizationId } = await createOrganization(store, { name: 'Tx', plan: 'free' });
    const channel = { name: 'n', type: 'email', recipientEmail: 'a@example.com', enabled: true, onMonitorDown: true, onMonitorRecovered: true, onIncidentCreated: true, onIncidentResolved: true, onIncidentUpdated: true, onMaintenanceScheduled: true, onMaintenanceStarted: true, onMaintenanceCompleted: true } as const;
    await expect(
      store.transaction(async (tx) => {
        await tx.notifications.insert(organizationId, channel, new Date());
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.notifications.count(organizationId)).toBe(0);
    await store.close();
  });

  it('enforces foreign keys', async () => {
    const store = await Store.open(dialects.location(dialect));
    await expect(store.checks.insert({ monitorId: 'mon_missing', status: 'up', latency: 1, statusCode: null, region: 'eu', checkedAt: new Date().toISOString(), error: null })).rejects.toThrow(/FOREIGN KEY|foreign key/);
    await store.close();
  });

  it('claims each check once per interval, and lets another holder take it over one interval after a claimer died', async () => {
    const store = await Store.open(dialects.location(dialect));
    const { organizationId } = await createOrganization(store, { name: 'Claims', plan: 'free' });
    const monitor = await store.monitors.insert(organizationId, { name: 'M', type: 'http', url: 'https://example.com/', interval: 30, timeout: 10, method: 'GET', headers: {}, regions: ['eu'], autoIncidents: false, rules: [] }, new Date());
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    const claim = (holder: string, at: number) => store.checkClaims.claim(monitor.id, 'eu', holder, at, 30_000, 1_000);
    // Two processes' timers fire for the same check: one runs it.
    expect((await Promise.all([claim('a', t0), claim('b', t0 + 5)])).filter(Boolean)).toHaveLength(1);
    expect(await claim('c', t0 + 15_000)).toBe(false);
    // Its claimer was killed: the check is due again one interval on, for another.
    expect(await claim('c', t0 + 29_500)).toBe(true);
    expect(await claim('a', t0 + 30_000)).toBe(false);
    expect(await store.checkClaims.claim(monitor.id, 'us', 'a', t0 + 30_000, 30_000, 1_000)).toBe(true);
    await store.close();
  });

  it('guards a maintenance transition by the state it starts from', async () => {
    const store = await Store.open(dialects.location(dialect));
    const { organizationId } = await createOrganization(store, { name: 'Guard', plan: 'free' });
    const window = await store.maintenance.insert(organizationId, { title: 'W', description: null, scheduledStart: '2030-01-01T00:00:00.000Z', scheduledEnd: '2030-01-01T01:00:00.000Z', monitorIds: [] }, new Date());
    const at = new Date('2030-01-01T00:00:00.000Z');
    const moves = await Promise.all([1, 2].map(() => store.maintenance.transition(organizationId, window.id, 'in_progress', at, 'scheduled')));
    expect(moves.filter((moved) => moved !== null)).toHaveLength(1);
    expect(await store.maintenance.transition(organizationId, window.id, 'cancelled', at, 'scheduled')).toBeNull();
    await store.close();
  });
});

/** startService on a test's own PostgreSQL schema (the service's default is `service`). */
async function startWithSchema(options: Parameters<typeof startService>[0], location: StoreLocation) {
  if (location.dialect !== 'postgres') throw new Error('not PostgreSQL');
  return startService({ ...options, databaseUrl: location.url, databaseSchema: location.schema });
}

describe('the SQLite file', () => {
  it('keeps the database, its -wal and its -shm readable by their owner only, WAL and foreign keys on', async () => {
    const path = join(folder, 'private.db');
    const store = await Store.open(path);
    try {
      await createOrganization(store, { name: 'Private', plan: 'free' });
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(statSync(file).mode & 0o777, file).toBe(0o600);
      }
    } finally {
      await store.close();
    }
    const raw = new DatabaseSync(path);
    expect(raw.prepare('PRAGMA journal_mode').get()?.journal_mode).toBe('wal');
    expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: LATEST });
    raw.close();
  });

  it('narrows the mode of a database file an older version left readable by all', async () => {
    const path = join(folder, 'older.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    await (await Store.open(path)).close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a file whose user_version is newer, before writing', async () => {
    const path = join(folder, 'future.db');
    const raw = new DatabaseSync(path);
    raw.exec(`PRAGMA user_version = ${LATEST + 1}`);
    raw.close();
    await expect(Store.open(path)).rejects.toThrow(StoreVersionError);
    const after = new DatabaseSync(path);
    expect(after.prepare("SELECT COUNT(*) AS n FROM sqlite_schema WHERE type = 'table'").get()).toEqual({ n: 0 });
    after.close();
  });

  it('opens a file written by the store before it moved onto the storage floor, unchanged', async () => {
    // test/service/fixtures/api-v2.db: written by the synchronous store of main at 12550d4 (schema version 2, with
    // schema_migrations and user_version 2): one organization (key pl_EHnH…), a monitor, a check,
    // an incident and a maintenance window.
    mkdirSync(join(folder, 'fixture'), { recursive: true });
    const path = join(folder, 'fixture', 'api-v2.db');
    copyFileSync(new URL('./fixtures/api-v2.db', import.meta.url), path);
    const before = new DatabaseSync(path);
    const migrationsBefore = before.prepare('SELECT * FROM schema_migrations ORDER BY version').all();
    before.close();
    const store = await Store.open(path);
    try {
      // Adopted as it was: versions 1 and 2 recorded then, unchanged; nothing re-run.
      expect((await store.db.all('SELECT * FROM schema_migrations ORDER BY version')).slice(0, 2)).toEqual(migrationsBefore);
      const principal = await store.organizations.findByApiKey('pl_EHnHUih2mA7NHW1USfeGx5NmMAuFea38');
      expect(principal?.organization).toMatchObject({ id: 'org_XpXDscERCEbKLO7h', name: 'Fixture Org', plan: 'pro' });
      const monitor = await store.monitors.get('org_XpXDscERCEbKLO7h', 'mon_LrwYTccwB9z3F6H9');
      expect(monitor).toMatchObject({ name: 'Website', headers: { A: 'b' }, regions: ['eu'], autoIncidents: true });
      expect(await store.checks.list('mon_LrwYTccwB9z3F6H9', { limit: 10, offset: 0 })).toMatchObject([{ status: 'down', latency: 123, statusCode: 503, checkedAt: '2026-11-27T10:01:00.000Z', error: 'HTTP 503' }]);
      expect(await store.incidents.list('org_XpXDscERCEbKLO7h', { limit: 10, offset: 0 })).toMatchObject([{ title: 'Down', severity: 'major', monitors: [{ monitor: { id: 'mon_LrwYTccwB9z3F6H9' } }] }]);
      expect(await store.maintenance.list('org_XpXDscERCEbKLO7h', { limit: 10, offset: 0 })).toMatchObject([{ title: 'Window', status: 'scheduled', scheduledStart: '2030-01-01T00:00:00.000Z' }]);
      expect(await schemaVersion(store.db)).toBe(LATEST);
    } finally {
      await store.close();
    }
  });
});

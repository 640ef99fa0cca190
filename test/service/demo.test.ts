import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentSchema } from '../../src/contract/incident.ts';
import { monitorSchema } from '../../src/contract/monitor.ts';
import { pageMonitorSchema, statusPageSchema } from '../../src/contract/status-page.ts';
import { createOrganization, startService, type RunningService } from '../../src/service/index.ts';
import { Client, dataOf, listOf } from './helpers.ts';

const NOW = new Date('2030-06-15T12:34:56.000Z');
const DAY_MS = 86_400_000;

describe('demo data', () => {
  let service: RunningService;
  let client: Client;
  let seedMs = 0;
  beforeAll(async () => {
    const started = performance.now();
    // The seeded data as such: no engine changing it meanwhile (test/service/engine/demo-engine.test.ts runs it).
    service = await startService({ databasePath: ':memory:', seedDemo: true, scheduler: false, now: () => NOW, log: () => undefined });
    seedMs = performance.now() - started;
    if (!service.demo) throw new Error('no demo info');
    client = new Client(service.url, service.demo.apiKey);
  });
  afterAll(() => service.close());

  it('seeds quickly and reports the demo key and pages', () => {
    expect(seedMs).toBeLessThan(3000);
    expect(service.demo).toEqual({
      apiKey: expect.stringMatching(/^pl_[A-Za-z0-9_-]{32}$/),
      organizationName: 'Acme Cloud',
      pages: [
        { slug: 'acme', customDomain: 'status.acme.test', isPublic: true },
        { slug: 'internal', customDomain: null, isPublic: false },
      ],
    });
  });

  it('belongs to a pro organization', async () => {
    expect(dataOf(await client.get('/organization'))).toMatchObject({ name: 'Acme Cloud', plan: 'pro', subscriptionActive: true });
  });

  it('has monitors of every type with varied statuses', async () => {
    const monitors = listOf(await client.get('/monitors?limit=100')).items.map((item) => monitorSchema.parse(item));
    expect(monitors.length).toBeGreaterThanOrEqual(7);
    expect(new Set(monitors.map((m) => m.type))).toEqual(new Set(['http', 'tcp', 'ping']));
    const statuses = monitors.map((m) => m.currentStatus);
    expect(statuses.filter((s) => s === 'up').length).toBeGreaterThan(monitors.length / 2);
    expect(statuses.filter((s) => s === 'degraded')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'down')).toHaveLength(1);
    for (const monitor of monitors) {
      expect(monitor.lastCheckedAt).toBe('2030-06-15T12:00:00.000Z');
      expect(Number.isInteger(monitor.lastLatency)).toBe(true);
    }
  });

  it('has 90 days of hourly checks per monitor that a client can page through', async () => {
    const monitors = listOf(await client.get('/monitors?limit=100')).items;
    const down = monitors.find((m) => m.currentStatus === 'down');
    if (!down) throw new Error('no down monitor');
    const first = listOf(await client.get(`/monitors/${String(down.id)}/checks?limit=200`));
    expect(first.pagination).toEqual({ total: 2160, limit: 200, offset: 0, hasMore: true });
    expect(first.items[0]).toMatchObject({ status: 'down', checkedAt: '2030-06-15T12:00:00.000Z' });
    expect(first.items[1]).toMatchObject({ checkedAt: '2030-06-15T11:00:00.000Z' });
    const last = listOf(await client.get(`/monitors/${String(down.id)}/checks?limit=200&offset=2000`));
    expect(last.items).toHaveLength(160);
    expect(last.pagination.hasMore).toBe(false);
    expect(Date.parse(String(last.items.at(-1)?.checkedAt))).toBe(Date.parse('2030-06-15T12:00:00.000Z') - 2159 * 3_600_000);
    for (const check of [...first.items, ...last.items]) {
      expect(Number.isInteger(check.latency)).toBe(true);
      expect(check.latency as number).toBeGreaterThan(0);
    }
    const counts = (await service.store.db.all('SELECT monitor_id, COUNT(*) AS n, SUM(demo) AS demo, SUM(status = \'down\') AS down FROM checks GROUP BY monitor_id'));
    expect(counts).toHaveLength(monitors.length);
    for (const row of counts) {
      expect(row.n).toBe(2160);
      expect(row.demo).toBe(2160);
      // Mostly up, with a few bad days.
      expect(Number(row.down)).toBeLessThan(2160 * 0.02);
    }
    expect(counts.some((row) => Number(row.down) >= 2)).toBe(true);
  });

  it('has a branded public page and a private one', async () => {
    const pages = listOf(await client.get('/status-pages')).items.map((item) => statusPageSchema.parse(item));
    const acme = pages.find((page) => page.slug === 'acme');
    expect(acme).toMatchObject({ isPublic: true, customDomain: 'status.acme.test', showResponseTimes: true, brandColor: expect.stringMatching(/^#[0-9a-f]{6}$/i), logoUrl: expect.stringMatching(/^https:\/\//) });
    expect(acme?.headerText).toMatch(/<strong>|<a href=/);
    expect(acme?.footerText).toMatch(/<a href=/);
    expect(acme?.customCss).toBeTruthy();
    const links = (acme?.monitors ?? []).map((link) => pageMonitorSchema.parse(link));
    const monitorCount = listOf(await client.get('/monitors')).pagination.total;
    expect(links.length).toBeGreaterThan(monitorCount / 2);
    expect(links.length).toBeLessThan(monitorCount);
    expect(links.some((link) => link.displayName !== link.monitor?.name)).toBe(true);
    expect(links.map((link) => link.sortOrder)).toEqual([...links.map((link) => link.sortOrder)].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(pages.find((page) => page.slug === 'internal')).toMatchObject({ isPublic: false });
  });

  it('has an active incident and two resolved ones', async () => {
    const incidents = listOf(await client.get('/incidents')).items.map((item) => incidentSchema.parse(item));
    const active = incidents.filter((incident) => incident.status !== 'resolved');
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ status: 'identified', severity: 'major', resolvedAt: null });
    expect(active[0]?.updates).toHaveLength(3);
    const monitors = listOf(await client.get('/monitors?limit=100')).items;
    const troubled = monitors.filter((m) => m.currentStatus === 'down' || m.currentStatus === 'degraded').map((m) => m.id);
    expect(active[0]?.monitors.map((item) => item.monitor.id)).toEqual(expect.arrayContaining(troubled));
    const resolvedAges = incidents
      .filter((incident) => incident.status === 'resolved')
      .map((incident) => Math.round((NOW.getTime() - Date.parse(incident.resolvedAt ?? '')) / DAY_MS));
    expect(resolvedAges.sort((a, b) => a - b)).toEqual([5, 40]);
  });

  it('has a window in progress and one scheduled in about three days', async () => {
    const windows = listOf(await client.get('/maintenance')).items;
    const inProgress = windows.find((w) => w.status === 'in_progress');
    expect(inProgress).toBeDefined();
    const scheduled = windows.find((w) => w.status === 'scheduled');
    expect(Math.round((Date.parse(String(scheduled?.scheduledStart)) - NOW.getTime()) / DAY_MS)).toBe(3);
    const monitors = listOf(await client.get('/monitors?limit=100')).items;
    expect(monitors.filter((m) => m.currentStatus === 'maintenance').map((m) => m.id)).toEqual(inProgress?.monitorIds);
  });

  it('has one slack and one email channel', async () => {
    const channels = listOf(await client.get('/notifications')).items;
    expect(channels.map((channel) => channel.type).sort()).toEqual(['email', 'slack']);
  });

  it('keeps the plaintext key for the demo organization only', async () => {
    await createOrganization(service.store, { name: 'Real', plan: 'free' });
    const rows = (await service.store.db.all('SELECT api_key FROM demo_meta'));
    expect(rows).toEqual([{ api_key: service.demo?.apiKey }]);
  });
});

describe('demo seeding across restarts', () => {
  const folder = mkdtempSync(join(tmpdir(), 'porchlight-demo-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('seeds once and reports the same key on later starts', async () => {
    const databasePath = join(folder, 'demo.db');
    const first = await startService({ databasePath, seedDemo: true, log: () => undefined });
    const key = first.demo?.apiKey;
    await first.close();
    const second = await startService({ databasePath, seedDemo: true, log: () => undefined });
    expect(second.demo?.apiKey).toBe(key);
    expect(await second.store.organizations.count()).toBe(1);
    await second.close();
  });

  it('allows private check targets to the demo organization unless told otherwise, and only to it', async () => {
    const loopback = { name: 'Local', type: 'tcp', host: '127.0.0.1', port: 9 };
    const demoStore = await startService({ databasePath: ':memory:', seedDemo: true, scheduler: false, log: () => undefined });
    const strictDemo = await startService({ databasePath: ':memory:', seedDemo: true, scheduler: false, log: () => undefined, allowPrivateTargets: false });
    const plain = await startService({ databasePath: ':memory:', scheduler: false, log: () => undefined });
    try {
      expect([demoStore.privateTargets, strictDemo.privateTargets, plain.privateTargets]).toEqual(['demo', 'none', 'none']);
      expect((await new Client(demoStore.url, demoStore.demo!.apiKey).post('/monitors', loopback)).status).toBe(201);
      const second = await createOrganization(demoStore.store, { name: 'Second', plan: 'pro' });
      expect((await new Client(demoStore.url, second.apiKey).post('/monitors', loopback)).status).toBe(400);
      expect((await new Client(strictDemo.url, strictDemo.demo!.apiKey).post('/monitors', loopback)).status).toBe(400);
      const { apiKey } = await createOrganization(plain.store, { name: 'Plain', plan: 'free' });
      expect((await new Client(plain.url, apiKey).post('/monitors', loopback)).status).toBe(400);
    } finally {
      await Promise.all([demoStore.close(), strictDemo.close(), plain.close()]);
    }
  });

  it('does not seed when disabled or when the store already has data', async () => {
    const off = await startService({ databasePath: ':memory:', log: () => undefined });
    expect(off.demo).toBeNull();
    expect(await off.store.isEmpty()).toBe(true);
    await off.close();

    const databasePath = join(folder, 'real.db');
    const setup = await startService({ databasePath, log: () => undefined });
    await createOrganization(setup.store, { name: 'Real', plan: 'pro' });
    await setup.close();
    const withSeed = await startService({ databasePath, seedDemo: true, log: () => undefined });
    expect(withSeed.demo).toBeNull();
    expect(await withSeed.store.organizations.count()).toBe(1);
    await withSeed.close();
  });
});

describe('demo logo', () => {
  it('points the placeholder logo at the site once the site is known', async () => {
    const service = await startService({ databasePath: ':memory:', seedDemo: true, scheduler: false, log: () => undefined });
    const client = new Client(service.url, service.demo!.apiKey);
    try {
      const before = listOf(await client.get('/status-pages')).items as { slug: string; logoUrl: string | null }[];
      expect(before.find((page) => page.slug === 'acme')?.logoUrl).toBe('https://acme.example/logo.svg');
      service.setSiteUrl('http://127.0.0.1:9999/');
      const after = listOf(await client.get('/status-pages')).items as { slug: string; logoUrl: string | null }[];
      // A path on the site, so the logo loads from any host name the site is reached by.
      expect(after.find((page) => page.slug === 'acme')?.logoUrl).toBe('/demo/acme-logo.svg');
      expect(after.find((page) => page.slug === 'internal')?.logoUrl).toBeNull();
      // A store seeded before kept the absolute loopback address: it moves to the path too.
      const organizationId = (await service.store.demo.find())!.organizationId;
      const acme = (await service.store.statusPages.list(organizationId, { limit: 100, offset: 0 })).find((page) => page.slug === 'acme')!;
      await service.store.statusPages.update(organizationId, acme.id, { logoUrl: 'http://127.0.0.1:4321/demo/acme-logo.svg' }, new Date());
      service.setSiteUrl('http://127.0.0.1:9999/');
      const moved = listOf(await client.get('/status-pages')).items as { slug: string; logoUrl: string | null }[];
      expect(moved.find((page) => page.slug === 'acme')?.logoUrl).toBe('/demo/acme-logo.svg');
    } finally {
      await service.close();
    }
  });
});

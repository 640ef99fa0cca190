import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService, type RunningService } from '../../../src/service/index.ts';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { closedPort } from '../checks/loopback.ts';
import { Client, dataOf, listOf } from '../helpers.ts';
import { ManualClock } from './manual-clock.ts';
import { openPort } from './tcp-port.ts';

const HISTORY = 2160;

/** Stands in for the site: answers /healthz like src/site/pages/healthz.ts. */
async function startSite(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/healthz') hits++;
    res.writeHead(req.url === '/healthz' ? 200 : 404, { 'content-type': 'text/plain' }).end('ok\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the demo with the engine running', () => {
  const clock = new ManualClock();
  let service: RunningService;
  let client: Client;
  let site: Awaited<ReturnType<typeof startSite>>;
  let target: TargetServer;
  let port: number;
  let byName: Map<string, string>;
  const logs: string[] = [];
  beforeAll(async () => {
    port = await closedPort();
    site = await startSite();
    target = await startTargetServer();
    service = await startService({
      databasePath: ':memory:',
      seedDemo: true,
      now: clock.now,
      log: (line) => logs.push(line),
      engine: { timers: clock, random: () => 0 },
      notifications: { retryDelaysMs: [10] },
      demoTargets: { tcpPort: port },
    });
    if (!service.demo) throw new Error('no demo');
    client = new Client(service.url, service.demo.apiKey);
    const monitors = listOf(await client.get('/monitors?limit=100')).items;
    byName = new Map(monitors.map((monitor) => [String(monitor.name), String(monitor.id)]));
  });
  afterAll(async () => {
    await service.close();
    await Promise.all([site.close(), target.close()]);
  });
  const id = (name: string): string => byName.get(name) ?? '';
  const checks = (name: string): Promise<number> => service.store.checks.count(id(name));
  const monitor = async (name: string) => dataOf(await client.get(`/monitors/${id(name)}`));

  it('serves an unauthenticated health endpoint', async () => {
    const response = await fetch(`${service.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('points the local demo monitors at this machine', async () => {
    expect(await monitor('Public API')).toMatchObject({ url: `${service.url}/health` });
    expect(await monitor('Primary database')).toMatchObject({ host: '127.0.0.1', port, autoIncidents: true, interval: 30 });
  });

  it('checks the API itself and the closed port, and nothing else until the site URL is known', async () => {
    clock.advance(0);
    await vi.waitFor(async () => expect([await checks('Public API'), await checks('Primary database')]).toEqual([HISTORY + 3, HISTORY + 1]));
    expect(await monitor('Public API')).toMatchObject({ currentStatus: 'up', lastStatus: 'up' });
    expect(await monitor('Primary database')).toMatchObject({ currentStatus: 'up', lastStatus: 'down' });
    expect(await checks('Website')).toBe(HISTORY);
    expect(site.hits()).toBe(0);
  });

  it('takes the closed port down after two failures and opens an incident', async () => {
    clock.advance(30_000);
    await vi.waitFor(async () => expect(await checks('Primary database')).toBe(HISTORY + 2));
    expect(await monitor('Primary database')).toMatchObject({ currentStatus: 'down' });
    const incident = listOf(await client.get('/incidents')).items.find((item) => item.title === 'Primary database is down');
    // Payments API (seeded) and the database: 2 of the public page's 8 monitors.
    expect(incident).toMatchObject({ status: 'investigating', severity: 'major' });
  });

  it('records deliveries to the demo channels as skipped, never sending them', async () => {
    const channels = listOf(await client.get('/notifications')).items;
    await vi.waitFor(async () => {
      for (const channel of channels) expect((await service.store.deliveries.forChannel(String(channel.id))).length).toBeGreaterThan(0);
    });
    for (const channel of channels) {
      for (const attempt of await service.store.deliveries.forChannel(String(channel.id))) {
        expect(attempt).toMatchObject({ outcome: 'skipped', error: 'demo channel: not delivered' });
      }
    }
  });

  it('recovers and resolves the incident once the port opens', async () => {
    const listener = await openPort(port);
    clock.advance(30_000);
    await vi.waitFor(async () => expect(await checks('Primary database')).toBe(HISTORY + 3));
    await listener.close();
    expect(await monitor('Primary database')).toMatchObject({ currentStatus: 'up', lastStatus: 'up' });
    const incident = listOf(await client.get('/incidents')).items.find((item) => item.title === 'Primary database is down');
    expect(incident).toMatchObject({ status: 'resolved' });
  });

  it('checks the site once the launcher tells its URL', async () => {
    service.setSiteUrl(`${site.url}/`);
    expect(await monitor('Website')).toMatchObject({ url: `${site.url}/healthz` });
    clock.advance(0);
    await vi.waitFor(async () => expect(await checks('Website')).toBe(HISTORY + 2));
    expect(site.hits()).toBe(2);
    expect(await monitor('Website')).toMatchObject({ currentStatus: 'up' });
  });

  it('never checks the simulated demo monitors, until one gets a real target', async () => {
    for (let round = 1; round <= 5; round++) {
      clock.advance(30_000);
      await vi.waitFor(async () => expect(await checks('Primary database')).toBe(HISTORY + 3 + round));
    }
    for (const name of ['Dashboard', 'Payments API', 'Cache cluster', 'Edge network', 'DNS', 'Build runners']) expect(await checks(name), name).toBe(HISTORY);
    expect(await monitor('Payments API')).toMatchObject({ currentStatus: 'down' });

    await client.patch(`/monitors/${id('Dashboard')}`, { url: `${target.url}/landed` });
    clock.advance(60_000);
    await vi.waitFor(async () => expect(await checks('Dashboard')).toBe(HISTORY + 1));
    expect(target.received.map((request) => request.url)).toContain('/landed');
    expect(logs.join('\n')).not.toContain('hooks.slack.example');
  });
});

describe('simulated demo monitors', () => {
  it('refuse on-demand checks instead of contacting their made-up hosts', async () => {
    const service = await startService({ databasePath: ':memory:', seedDemo: true, scheduler: false, notifications: { deliver: false }, log: () => undefined });
    const client = new Client(service.url, service.demo?.apiKey ?? '');
    const monitors = listOf(await client.get('/monitors?limit=100')).items;
    const payments = monitors.find((item) => item.name === 'Payments API');
    const response = await client.post(`/monitors/${String(payments?.id)}/run`);
    expect(response.status).toBe(409);
    expect(response.json).toMatchObject({ error: { code: 'invalid_state' } });
    expect(await service.store.checks.count(String(payments?.id))).toBe(HISTORY);
    await service.close();
  });
});

/**
 * The typed client against the embedded service, over real sockets: every client method once,
 * so a drift between the two sides of the contract fails here.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, ConflictError, NotFoundError, BadRequestError, createClient, type ApiClient } from '../../src/api/index.ts';
import { createOrganization, startService, type RunningService } from '../../src/service/index.ts';

let service: RunningService;
let client: ApiClient;
let target: Server;
let targetUrl: string;

beforeAll(async () => {
  // The checks run against this test's loopback server: a second organization needs the allowance.
  service = await startService({ databasePath: ':memory:', seedDemo: true, scheduler: false, log: () => undefined, allowPrivateTargets: true });
  const { apiKey } = await createOrganization(service.store, { name: 'Contract Co', plan: 'pro' });
  client = createClient({ baseUrl: service.url, apiKey, maxRetries: 0 });
  target = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await client.close();
  await service.close();
  await new Promise((resolve) => target.close(resolve));
});

describe('typed client against the embedded service', () => {
  it('reads the organization of its key', async () => {
    const organization = await client.organization.get();
    expect(organization).toMatchObject({ name: 'Contract Co', plan: 'pro', subscriptionActive: true });
  });

  it('manages monitors, runs a check and pages through its history', async () => {
    const created = await client.monitors.create({ name: 'Local target', type: 'http', url: targetUrl, rules: [{ type: 'status_code', operator: 'eq', value: 200 }] });
    expect(created).toMatchObject({ name: 'Local target', type: 'http', active: true, interval: 60, regions: ['eu'] });
    const updated = await client.monitors.update(created.id, { interval: 30, active: false });
    expect(updated).toMatchObject({ interval: 30, active: false, currentStatus: 'paused' });
    expect((await client.monitors.get(created.id)).url).toBe(targetUrl);

    const check = await client.monitors.run(created.id);
    expect(check).toMatchObject({ monitorId: created.id, status: 'up', statusCode: 200, region: 'eu' });
    expect(check!.latency).toBeGreaterThanOrEqual(0);
    const page = await client.monitors.listChecks(created.id, { limit: 1 });
    expect(page.pagination).toEqual({ total: 1, limit: 1, offset: 0, hasMore: false });

    const all: string[] = [];
    for await (const monitor of client.monitors.listAll({ pageSize: 1 })) all.push(monitor.id);
    expect(all).toContain(created.id);
    expect((await client.monitors.list({ limit: 1 })).pagination.hasMore).toBe(false);

    await client.monitors.delete(created.id);
    await expect(client.monitors.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('walks every check of a demo monitor newest first', async () => {
    const demo = createClient({ baseUrl: service.url, apiKey: service.demo!.apiKey, maxRetries: 0 });
    const [first] = (await demo.monitors.list({ limit: 1 })).data;
    let count = 0;
    let previous = '9999';
    for await (const check of demo.monitors.listAllChecks(first!.id)) {
      expect(check.checkedAt <= previous).toBe(true);
      previous = check.checkedAt;
      count += 1;
    }
    expect(count).toBe(2160);
    await demo.close();
  });

  it('manages status pages with linked monitors', async () => {
    const monitor = await client.monitors.create({ name: 'Linked', type: 'tcp', host: '127.0.0.1', port: 9 });
    const page = await client.statusPages.create({ name: 'Contract page', slug: 'contract-page', monitors: [{ monitorId: monitor.id, displayName: 'Shown name', sortOrder: 3 }] });
    expect(page).toMatchObject({ slug: 'contract-page', isPublic: true, brandColor: '#000000', showResponseTimes: true });
    expect(page.monitors).toEqual([expect.objectContaining({ monitorId: monitor.id, displayName: 'Shown name', sortOrder: 3, monitor: { id: monitor.id, name: 'Linked' } })]);
    const updated = await client.statusPages.update(page.id, { isPublic: false, customCss: 'body{}' });
    expect(updated).toMatchObject({ isPublic: false, customCss: 'body{}' });
    expect((await client.statusPages.get(page.id)).monitors).toHaveLength(1);
    expect((await client.statusPages.list()).data.map((item) => item.slug)).toContain('contract-page');
    await expect(client.statusPages.create({ name: 'Taken', slug: 'contract-page' })).rejects.toBeInstanceOf(ConflictError);
    await client.statusPages.delete(page.id);
    await expect(client.statusPages.get(page.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('runs an incident through its states', async () => {
    const monitor = await client.monitors.create({ name: 'Incident target', type: 'ping', host: '127.0.0.1' });
    const incident = await client.incidents.create({ monitorIds: [monitor.id], title: 'Outage', message: 'Investigating' });
    expect(incident).toMatchObject({ status: 'investigating', severity: 'minor', resolvedAt: null });
    expect(incident.updates.map((update) => update.message)).toEqual(['Investigating']);
    const resolved = await client.incidents.update(incident.id, { status: 'resolved', message: 'Fixed' });
    expect(resolved.resolvedAt).toEqual(expect.any(String));
    expect(resolved.updates).toHaveLength(2);
    expect((await client.incidents.get(incident.id)).monitors).toEqual([{ monitor: { id: monitor.id, name: 'Incident target' } }]);
    expect((await client.incidents.list()).data.some((item) => item.id === incident.id)).toBe(true);
    await client.incidents.delete(incident.id);
    await expect(client.incidents.get(incident.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('runs maintenance windows through their states', async () => {
    const monitor = await client.monitors.create({ name: 'Maintained', type: 'ping', host: '127.0.0.1' });
    const window = { title: 'Upgrade', scheduledStart: '2030-01-01T10:00:00Z', scheduledEnd: '2030-01-01T11:00:00Z', monitorIds: [monitor.id] };
    const created = await client.maintenance.create(window);
    expect(created.status).toBe('scheduled');
    expect((await client.maintenance.update(created.id, { description: 'Faster' })).description).toBe('Faster');
    expect((await client.maintenance.start(created.id)).status).toBe('in_progress');
    await expect(client.maintenance.update(created.id, { title: 'Too late' })).rejects.toBeInstanceOf(ConflictError);
    expect((await client.maintenance.complete(created.id)).status).toBe('completed');
    const other = await client.maintenance.create(window);
    expect((await client.maintenance.cancel(other.id)).status).toBe('cancelled');
    const third = await client.maintenance.create(window);
    await client.maintenance.delete(third.id);
    expect((await client.maintenance.get(created.id)).monitors).toEqual([{ monitor: { id: monitor.id, name: 'Maintained' } }]);
    expect((await client.maintenance.list()).data.length).toBeGreaterThanOrEqual(2);
  });

  it('manages notification channels', async () => {
    const channel = await client.notifications.create({ name: 'Ops', type: 'email', recipientEmail: 'ops@example.com', onIncidentUpdated: false });
    expect(channel).toMatchObject({ enabled: true, onIncidentUpdated: false, onMonitorDown: true });
    expect((await client.notifications.update(channel.id, { enabled: false })).enabled).toBe(false);
    expect((await client.notifications.get(channel.id)).name).toBe('Ops');
    expect((await client.notifications.list()).data).toHaveLength(1);
    await expect(client.notifications.create({ name: 'Bad', type: 'slack' })).rejects.toBeInstanceOf(BadRequestError);
    await client.notifications.delete(channel.id);
  });

  it('surfaces a bad key as an authentication error that does not quote the key', async () => {
    const wrong = createClient({ baseUrl: service.url, apiKey: 'pl_wrong-key-value', maxRetries: 0 });
    const error = await wrong.monitors.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String((error as Error).message)).not.toContain('pl_wrong-key-value');
    await wrong.close();
  });
});

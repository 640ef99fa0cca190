/** Every endpoint method sends the right method, path, query and body, and parses the answer. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/index.ts';
import * as fx from './support/fixtures.ts';
import { startHarness, type Harness } from './support/harness.ts';
import type { FakeReply } from './support/fake-api.ts';

interface EndpointCase {
  name: string;
  call: (client: ApiClient) => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  reply: FakeReply;
  result: unknown;
}

const list = (items: unknown[]) => ({ json: { data: items, pagination: fx.pagination(items.length) } });
const one = (item: unknown) => ({ json: { data: item } });
const page = (items: unknown[]) => ({ data: items, pagination: fx.pagination(items.length) });

const newMonitor = { name: 'API', type: 'http' as const, url: 'https://api.example.com', regions: ['eu' as const, 'us' as const] };
const newPage = { name: 'Acme status', slug: 'acme' };
const newIncident = { monitorIds: ['mon_1'], title: 'Slow responses', message: 'Looking into it', severity: 'major' as const };
const newWindow = {
  title: 'Database upgrade',
  scheduledStart: '2025-02-01T00:00:00.000Z',
  scheduledEnd: '2025-02-01T01:00:00.000Z',
  monitorIds: ['mon_1'],
};
const newChannel = { name: 'Ops mail', type: 'email' as const, recipientEmail: 'ops@example.com' };

const cases: EndpointCase[] = [
  // Monitors
  { name: 'monitors.list', call: (c) => c.monitors.list({ limit: 5, offset: 10 }), method: 'GET', path: '/api/v1/monitors', query: { limit: '5', offset: '10' }, reply: list([fx.monitor]), result: page([fx.monitor]) },
  { name: 'monitors.get', call: (c) => c.monitors.get('mon_1'), method: 'GET', path: '/api/v1/monitors/mon_1', reply: one(fx.monitor), result: fx.monitor },
  { name: 'monitors.create', call: (c) => c.monitors.create(newMonitor), method: 'POST', path: '/api/v1/monitors', body: newMonitor, reply: { status: 201, ...one(fx.monitorSubset) }, result: fx.monitorSubset },
  { name: 'monitors.update', call: (c) => c.monitors.update('mon_1', { active: false, interval: 30 }), method: 'PATCH', path: '/api/v1/monitors/mon_1', body: { active: false, interval: 30 }, reply: one({ ...fx.monitor, active: false, interval: 30 }), result: { ...fx.monitor, active: false, interval: 30 } },
  { name: 'monitors.delete', call: (c) => c.monitors.delete('mon_1'), method: 'DELETE', path: '/api/v1/monitors/mon_1', reply: { status: 204 }, result: undefined },
  { name: 'monitors.listChecks', call: (c) => c.monitors.listChecks('mon_1', { limit: 200 }), method: 'GET', path: '/api/v1/monitors/mon_1/checks', query: { limit: '200' }, reply: list([fx.check]), result: page([fx.check]) },
  { name: 'monitors.run', call: (c) => c.monitors.run('mon_1'), method: 'POST', path: '/api/v1/monitors/mon_1/run', reply: { status: 201, ...one(fx.check) }, result: fx.check },
  // Status pages
  { name: 'statusPages.list', call: (c) => c.statusPages.list(), method: 'GET', path: '/api/v1/status-pages', query: {}, reply: list([fx.statusPage]), result: page([fx.statusPage]) },
  { name: 'statusPages.get', call: (c) => c.statusPages.get('sp_1'), method: 'GET', path: '/api/v1/status-pages/sp_1', reply: one(fx.statusPage), result: fx.statusPage },
  { name: 'statusPages.create', call: (c) => c.statusPages.create(newPage), method: 'POST', path: '/api/v1/status-pages', body: newPage, reply: { status: 201, ...one(fx.statusPage) }, result: fx.statusPage },
  { name: 'statusPages.update', call: (c) => c.statusPages.update('sp_1', { name: 'Renamed' }), method: 'PATCH', path: '/api/v1/status-pages/sp_1', body: { name: 'Renamed' }, reply: one({ ...fx.statusPage, name: 'Renamed' }), result: { ...fx.statusPage, name: 'Renamed' } },
  { name: 'statusPages.delete', call: (c) => c.statusPages.delete('sp_1'), method: 'DELETE', path: '/api/v1/status-pages/sp_1', reply: { status: 200, json: { data: { deleted: true } } }, result: undefined },
  // Incidents
  { name: 'incidents.list', call: (c) => c.incidents.list({ offset: 20 }), method: 'GET', path: '/api/v1/incidents', query: { offset: '20' }, reply: list([fx.incident]), result: page([fx.incident]) },
  { name: 'incidents.get', call: (c) => c.incidents.get('inc_1'), method: 'GET', path: '/api/v1/incidents/inc_1', reply: one(fx.incident), result: fx.incident },
  { name: 'incidents.create', call: (c) => c.incidents.create(newIncident), method: 'POST', path: '/api/v1/incidents', body: newIncident, reply: { status: 201, ...one(fx.incident) }, result: fx.incident },
  { name: 'incidents.update', call: (c) => c.incidents.update('inc_1', { status: 'resolved', message: 'Fixed' }), method: 'PATCH', path: '/api/v1/incidents/inc_1', body: { status: 'resolved', message: 'Fixed' }, reply: one({ ...fx.incident, status: 'resolved', resolvedAt: '2025-01-01T01:00:00.000Z' }), result: { ...fx.incident, status: 'resolved', resolvedAt: '2025-01-01T01:00:00.000Z' } },
  { name: 'incidents.delete', call: (c) => c.incidents.delete('inc_1'), method: 'DELETE', path: '/api/v1/incidents/inc_1', reply: { status: 204 }, result: undefined },
  // Maintenance windows
  { name: 'maintenance.list', call: (c) => c.maintenance.list(), method: 'GET', path: '/api/v1/maintenance', query: {}, reply: list([fx.maintenanceWindow]), result: page([fx.maintenanceWindow]) },
  { name: 'maintenance.get', call: (c) => c.maintenance.get('mw_1'), method: 'GET', path: '/api/v1/maintenance/mw_1', reply: one(fx.maintenanceWindow), result: fx.maintenanceWindow },
  { name: 'maintenance.create', call: (c) => c.maintenance.create(newWindow), method: 'POST', path: '/api/v1/maintenance', body: newWindow, reply: { status: 201, ...one(fx.maintenanceWindow) }, result: fx.maintenanceWindow },
  { name: 'maintenance.update', call: (c) => c.maintenance.update('mw_1', { title: 'Later upgrade' }), method: 'PATCH', path: '/api/v1/maintenance/mw_1', body: { title: 'Later upgrade' }, reply: one({ ...fx.maintenanceWindow, title: 'Later upgrade' }), result: { ...fx.maintenanceWindow, title: 'Later upgrade' } },
  { name: 'maintenance.delete', call: (c) => c.maintenance.delete('mw_1'), method: 'DELETE', path: '/api/v1/maintenance/mw_1', reply: { status: 204 }, result: undefined },
  { name: 'maintenance.start', call: (c) => c.maintenance.start('mw_1'), method: 'POST', path: '/api/v1/maintenance/mw_1/start', reply: one({ ...fx.maintenanceWindow, status: 'in_progress' }), result: { ...fx.maintenanceWindow, status: 'in_progress' } },
  { name: 'maintenance.complete', call: (c) => c.maintenance.complete('mw_1'), method: 'POST', path: '/api/v1/maintenance/mw_1/complete', reply: one({ ...fx.maintenanceWindow, status: 'completed' }), result: { ...fx.maintenanceWindow, status: 'completed' } },
  { name: 'maintenance.cancel', call: (c) => c.maintenance.cancel('mw_1'), method: 'POST', path: '/api/v1/maintenance/mw_1/cancel', reply: one({ ...fx.maintenanceWindow, status: 'cancelled' }), result: { ...fx.maintenanceWindow, status: 'cancelled' } },
  // Organization
  { name: 'organization.get', call: (c) => c.organization.get(), method: 'GET', path: '/api/v1/organization', reply: one(fx.organization), result: fx.organization },
  // Notification channels
  { name: 'notifications.list', call: (c) => c.notifications.list(), method: 'GET', path: '/api/v1/notifications', query: {}, reply: list([fx.channel]), result: page([fx.channel]) },
  { name: 'notifications.get', call: (c) => c.notifications.get('ch_1'), method: 'GET', path: '/api/v1/notifications/ch_1', reply: one(fx.channel), result: fx.channel },
  { name: 'notifications.create', call: (c) => c.notifications.create(newChannel), method: 'POST', path: '/api/v1/notifications', body: newChannel, reply: { status: 201, ...one(fx.channel) }, result: fx.channel },
  { name: 'notifications.update', call: (c) => c.notifications.update('ch_1', { enabled: false }), method: 'PATCH', path: '/api/v1/notifications/ch_1', body: { enabled: false }, reply: one({ ...fx.channel, enabled: false }), result: { ...fx.channel, enabled: false } },
  { name: 'notifications.delete', call: (c) => c.notifications.delete('ch_1'), method: 'DELETE', path: '/api/v1/notifications/ch_1', reply: { status: 204 }, result: undefined },
];

describe('endpoints', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ maxRetries: 0 });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.api.requests.length = 0;
  });

  it.each(cases)('$name sends $method $path and parses the answer', async (testCase) => {
    h.api.reply(testCase.reply);
    const result = await testCase.call(h.client);

    expect(h.api.requests).toHaveLength(1);
    const sent = h.api.requests[0]!;
    expect(sent.method).toBe(testCase.method);
    expect(sent.rawPath).toBe(testCase.path);
    if (testCase.query) expect(sent.query).toEqual(testCase.query);
    expect(sent.body).toEqual(testCase.body);
    expect(sent.headers['content-type']).toBe(testCase.body === undefined ? undefined : 'application/json');
    expect(result).toEqual(testCase.result);
  });

  it('covers every method of every resource namespace', () => {
    const covered = new Set(cases.map((testCase) => testCase.name));
    const client = h.client as unknown as Record<string, Record<string, unknown>>;
    const walkers = new Set(['listAll', 'listAllChecks']); // iterators, tested in pagination.test.ts
    const methods = Object.entries(client)
      .filter(([, value]) => typeof value === 'object')
      .flatMap(([resource, namespace]) => Object.keys(namespace).filter((name) => !walkers.has(name)).map((name) => `${resource}.${name}`));
    expect(methods.filter((name) => !covered.has(name))).toEqual([]);
  });

  it('run resolves undefined when the API answers 202 without a body', async () => {
    h.api.reply({ status: 202 });
    await expect(h.client.monitors.run('mon_1')).resolves.toBeUndefined();
  });

  it('a created monitor answered with only the documented subset parses, absent fields undefined', async () => {
    h.api.reply({ status: 201, json: { data: fx.monitorSubset } });
    const created = await h.client.monitors.create(newMonitor);
    expect(created.id).toBe('mon_2');
    expect(created.timeout).toBeUndefined();
    expect(created.currentStatus).toBeUndefined();
  });

  it('status pages without a monitors key come back with an empty monitors array', async () => {
    const { monitors: _omitted, ...bare } = fx.statusPage;
    h.api.reply({ json: { data: bare } });
    const statusPage = await h.client.statusPages.get('sp_1');
    expect(statusPage.monitors).toEqual([]);
  });
});

/** Page walking over offsets, unpaginated lists, and item-by-item degradation. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Monitor } from '../../src/api/index.ts';
import * as fx from './support/fixtures.ts';
import type { RecordedRequest } from './support/fake-api.ts';
import { startHarness, type Harness } from './support/harness.ts';

let current: Harness | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});
const start = async (...args: Parameters<typeof startHarness>) => (current = await startHarness(...args));

const monitors = Array.from({ length: 5 }, (_, index) => ({ ...fx.monitor, id: `mon_${index}`, name: `Monitor ${index}` }));

/** Serves `items` honouring limit/offset like the real API. */
const paged = (items: unknown[]) => (request: RecordedRequest) => {
  const limit = Number(request.query.limit ?? 20);
  const offset = Number(request.query.offset ?? 0);
  const data = items.slice(offset, offset + limit);
  return { json: { data, pagination: { total: items.length, limit, offset, hasMore: offset + data.length < items.length } } };
};

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('listAll', () => {
  it('walks three pages by offset until hasMore is false', async () => {
    const h = await start();
    h.api.setDefault(paged(monitors));
    const all = await collect(h.client.monitors.listAll({ pageSize: 2 }));
    expect(all.map((monitor) => monitor.id)).toEqual(['mon_0', 'mon_1', 'mon_2', 'mon_3', 'mon_4']);
    expect(h.api.requests.map((request) => request.query)).toEqual([
      { limit: '2', offset: '0' },
      { limit: '2', offset: '2' },
      { limit: '2', offset: '4' },
    ]);
  });

  it('asks for the largest page by default', async () => {
    const h = await start();
    h.api.setDefault(paged(monitors));
    await collect(h.client.incidents.listAll());
    expect(h.api.requests.map((request) => request.query)).toEqual([{ limit: '100', offset: '0' }]);
  });

  it('walks checks 200 at a time, keeping the server order (newest first)', async () => {
    const h = await start();
    const checks = Array.from({ length: 250 }, (_, index) => ({
      ...fx.check,
      id: `chk_${index}`,
      checkedAt: new Date(Date.UTC(2025, 0, 1) - index * 60_000).toISOString(),
    }));
    h.api.setDefault(paged(checks));
    const all = await collect(h.client.monitors.listAllChecks('mon/1'));
    expect(all).toHaveLength(250);
    expect(all[0]!.id).toBe('chk_0');
    expect(all[249]!.id).toBe('chk_249');
    expect(h.api.requests.map((request) => request.url)).toEqual([
      '/api/v1/monitors/mon%2F1/checks?limit=200&offset=0',
      '/api/v1/monitors/mon%2F1/checks?limit=200&offset=200',
    ]);
  });

  it('stops on an empty page even if the server claims there is more', async () => {
    const h = await start();
    h.api.reply(
      { json: { data: [fx.monitor], pagination: { total: 10, limit: 1, offset: 0, hasMore: true } } },
      { json: { data: [], pagination: { total: 10, limit: 1, offset: 1, hasMore: true } } },
    );
    const all = await collect(h.client.monitors.listAll({ pageSize: 1 }));
    expect(all).toHaveLength(1);
    expect(h.api.requests).toHaveLength(2);
  });

  it('stops, with one warning, when the server ignores the offset', async () => {
    const h = await start();
    h.api.setDefault(() => ({ json: { data: [fx.incident], pagination: { total: 50, limit: 1, offset: 0, hasMore: true } } }));
    const all = await collect(h.client.incidents.listAll({ pageSize: 1 }));
    expect(all).toHaveLength(1);
    expect(h.api.requests).toHaveLength(2);
    expect(h.logged).toEqual(['porchlight api: incident list at GET /api/v1/incidents: pagination stopped: asked for offset 1, got 0']);
  });

  it('stops requesting when the consumer breaks early', async () => {
    const h = await start();
    h.api.setDefault(paged(monitors));
    for await (const monitor of h.client.monitors.listAll({ pageSize: 2 })) {
      if (monitor.id === 'mon_0') break;
    }
    expect(h.api.requests).toHaveLength(1);
  });

  it('advances by the items sent, so a dropped item neither repeats nor skips others', async () => {
    const items: unknown[] = monitors.map((monitor, index) => (index === 1 ? { ...monitor, name: 7 } : monitor));
    const dropped: Array<[string, number, string]> = [];
    const h = await start({ onInvalidItem: (resource, index, summary) => dropped.push([resource, index, summary]) });
    h.api.setDefault(paged(items));
    const all = await collect(h.client.monitors.listAll({ pageSize: 2 }));
    expect(all.map((monitor) => monitor.id)).toEqual(['mon_0', 'mon_2', 'mon_3', 'mon_4']);
    expect(dropped).toEqual([['monitor', 1, 'data[1].name: expected string, received number']]);
  });
});

describe('lists without pagination', () => {
  it('get a synthesised pagination: total = data.length, hasMore false', async () => {
    const h = await start();
    h.api.reply({ json: { data: [fx.statusPage, { ...fx.statusPage, id: 'sp_2', slug: 'two' }] } });
    const page = await h.client.statusPages.list();
    expect(page.data).toHaveLength(2);
    expect(page.pagination).toEqual({ total: 2, limit: 2, offset: 0, hasMore: false });
  });

  it('are walked in one request', async () => {
    const h = await start();
    h.api.setDefault(() => ({ json: { data: [fx.channel, { ...fx.channel, id: 'ch_2' }] } }));
    const all = await collect(h.client.notifications.listAll());
    expect(all.map((channel) => channel.id)).toEqual(['ch_1', 'ch_2']);
    expect(h.api.requests).toHaveLength(1);
  });
});

describe('per-item degradation', () => {
  const badMonitor = { ...fx.monitor, id: 'mon_bad', name: null };

  it('drops the bad item, returns the others and calls onInvalidItem', async () => {
    const dropped: Array<[string, number, string]> = [];
    const h = await start({ onInvalidItem: (resource, index, summary) => dropped.push([resource, index, summary]) });
    h.api.reply({ json: { data: [fx.monitor, badMonitor, { ...fx.monitor, id: 'mon_3' }], pagination: fx.pagination(3) } });
    const page = await h.client.monitors.list();
    expect(page.data.map((monitor: Monitor) => monitor.id)).toEqual(['mon_1', 'mon_3']);
    expect(page.pagination.total).toBe(3);
    expect(dropped).toEqual([['monitor', 1, 'data[1].name: expected string, received null']]);
    expect(h.logged).toEqual([]);
  });

  it('without a callback, logs one warn line naming the request', async () => {
    const h = await start();
    h.api.reply({ json: { data: [badMonitor, fx.monitor], pagination: fx.pagination(2) } });
    const page = await h.client.monitors.list();
    expect(page.data).toHaveLength(1);
    expect(h.logged).toEqual([
      'porchlight api: dropped invalid monitor at index 0 of GET /api/v1/monitors: data[0].name: expected string, received null',
    ]);
  });

  it('drops a bad monitor link of a status page but keeps the page', async () => {
    const dropped: Array<[string, number, string]> = [];
    const h = await start({ onInvalidItem: (resource, index, summary) => dropped.push([resource, index, summary]) });
    const goodLink = fx.statusPage.monitors[0]!;
    const withBadLink = { ...fx.statusPage, monitors: [goodLink, { id: 'spm_2', displayName: 'No monitor id' }] };
    h.api.reply({ json: { data: [withBadLink], pagination: fx.pagination(1) } });
    const page = await h.client.statusPages.list();
    expect(page.data).toHaveLength(1);
    expect(page.data[0]!.monitors).toEqual([goodLink]);
    expect(dropped).toEqual([['statusPageMonitor', 1, 'data[0].monitors[1].monitorId: expected string, received undefined']]);
  });

  it('does the same for a single status page', async () => {
    const dropped: string[] = [];
    const h = await start({ onInvalidItem: (_resource, _index, summary) => dropped.push(summary) });
    h.api.reply({ json: { data: { ...fx.statusPage, monitors: ['nonsense', ...fx.statusPage.monitors] } } });
    const statusPage = await h.client.statusPages.get('sp_1');
    expect(statusPage.monitors).toEqual(fx.statusPage.monitors);
    expect(dropped).toEqual(['data.monitors[0]: expected object, received string']);
  });

  it('drops a status page whose own fields are wrong', async () => {
    const dropped: string[] = [];
    const h = await start({ onInvalidItem: (resource) => dropped.push(resource) });
    h.api.reply({ json: { data: [{ ...fx.statusPage, slug: 5 }, { ...fx.statusPage, id: 'sp_2' }] } });
    const page = await h.client.statusPages.list();
    expect(page.data.map((statusPage) => statusPage.id)).toEqual(['sp_2']);
    expect(dropped).toEqual(['statusPage']);
  });
});

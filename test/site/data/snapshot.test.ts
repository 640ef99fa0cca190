import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/index.ts';
import type { Check, Incident, MaintenanceWindow, Monitor, Organization, StatusPage } from '../../../src/contract/index.ts';
import { loadSnapshot } from '../../../src/site/data/snapshot.ts';
import type { MonitorHistory } from '../../../src/site/data/uptime-history.ts';
import { incident, monitor, page } from '../view/fixtures.ts';

const NOW = new Date('2026-11-22T12:00:00.000Z');

/** An API of fixed lists that records what it was asked. */
function fakeApi(data: { monitors: Monitor[]; incidents: Incident[] }) {
  const asked: string[] = [];
  async function* list<T>(name: string, items: readonly T[]): AsyncGenerator<T> {
    asked.push(name);
    yield* items;
  }
  const organization: Organization = { id: 'o1', name: 'Acme', slug: 'acme', logo: null };
  const pages: StatusPage[] = [page()];
  const maintenance: MaintenanceWindow[] = [];
  const check = (monitorId: string): Check => ({ id: `c-${monitorId}`, monitorId, status: 'up', latency: 10, statusCode: 200, region: 'eu', checkedAt: '2026-11-22T11:59:00.000Z' });
  const client = {
    organization: { get: async () => (asked.push('organization'), organization) },
    statusPages: { listAll: () => list('pages', pages) },
    monitors: {
      listAll: () => list('monitors', data.monitors),
      listChecks: async (id: string) => {
        asked.push(`checks ${id}`);
        return { data: [check(id)], pagination: { total: 1, limit: 200, offset: 0, hasMore: false } };
      },
    },
    incidents: { listAll: () => list('incidents', data.incidents) },
    maintenance: { listAll: () => list('maintenance', maintenance) },
  } as unknown as ApiClient;
  return { client, asked, data };
}

const options = (extra: Partial<Parameters<typeof loadSnapshot>[2]> = {}) => ({ now: () => NOW, backfillBudget: 0, concurrency: 2, ...extra });

describe('loadSnapshot', () => {
  it('reads every list and every check page the first time', async () => {
    const api = fakeApi({ monitors: [monitor('m1', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' }), monitor('m2', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' })], incidents: [] });
    await loadSnapshot(api.client, new Map(), options());
    expect(api.asked.sort()).toEqual(['checks m1', 'checks m2', 'incidents', 'maintenance', 'monitors', 'organization', 'pages']);
  });

  it('reads only the named lists, keeps the others from the previous snapshot, and skips monitors not checked again', async () => {
    const api = fakeApi({ monitors: [monitor('m1', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' }), monitor('m2', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' })], incidents: [] });
    const histories = new Map<string, MonitorHistory>();
    const previous = await loadSnapshot(api.client, histories, options());
    api.asked.length = 0;
    api.data.incidents = [incident('i-new')];
    const later = new Date(NOW.getTime() + 3_600_000);
    const next = await loadSnapshot(api.client, histories, options({ now: () => later, previous, lists: new Set(['incidents']) }));
    expect(api.asked).toEqual(['incidents']);
    expect(next.incidents.map((entry) => entry.id)).toEqual(['i-new']);
    expect(next.pages).toBe(previous.pages);
    expect(next.monitors).toBe(previous.monitors);
    expect(next.fetchedAt).toEqual(later);
  });

  it('reads the check pages of a monitor whose lastCheckedAt moved, once the calmer pace allows', async () => {
    const api = fakeApi({ monitors: [monitor('m1', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' }), monitor('m2', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' })], incidents: [] });
    const histories = new Map<string, MonitorHistory>();
    await loadSnapshot(api.client, histories, options());
    api.data.monitors = [monitor('m1', 'up', { lastCheckedAt: '2026-11-22T12:04:00Z' }), monitor('m2', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' })];
    api.asked.length = 0;
    await loadSnapshot(api.client, histories, options({ now: () => new Date(NOW.getTime() + 60_000) }));
    expect(api.asked.filter((entry) => entry.startsWith('checks'))).toEqual([]);
    api.asked.length = 0;
    await loadSnapshot(api.client, histories, options({ now: () => new Date(NOW.getTime() + 300_000) }));
    expect(api.asked.filter((entry) => entry.startsWith('checks'))).toEqual(['checks m1']);
  });

  it('reads again at once the checks of a history that lacks a zone now asked for (PAGE_TIME_ZONES changed)', async () => {
    const api = fakeApi({ monitors: [monitor('m1', 'up', { lastCheckedAt: '2026-11-22T11:59:00Z' })], incidents: [] });
    const histories = new Map<string, MonitorHistory>();
    await loadSnapshot(api.client, histories, options());
    expect(histories.get('m1')!.zoneDays).toBeUndefined();
    api.asked.length = 0;
    // Nothing moved, one minute later: only a history started again for the new zone is read.
    const next = await loadSnapshot(api.client, histories, options({ now: () => new Date(NOW.getTime() + 60_000), timeZones: ['Asia/Tokyo'] }));
    expect(api.asked.filter((entry) => entry.startsWith('checks'))).toEqual(['checks m1']);
    expect(next.histories.get('m1')!.zoneDays).toEqual({ 'Asia/Tokyo': { '2026-11-22': { checks: 1, up: 1 } } });
    expect(next.histories.get('m1')!.days).toEqual({ '2026-11-22': { checks: 1, up: 1 } });
  });
});

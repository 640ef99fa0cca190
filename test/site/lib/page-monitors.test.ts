import { describe, expect, it } from 'vitest';
import type { PageMonitor } from '../../../src/contract/index.ts';
import { joinPageMonitors, pageMonitorIds, UNNAMED_SERVICE, type MonitorLike } from '../../../src/site/lib/page-monitors.ts';

const link = (id: string, monitorId: string, fields: Partial<PageMonitor> = {}): PageMonitor => ({ id, monitorId, ...fields });

const monitors: MonitorLike[] = [
  { id: 'api', name: 'API', currentStatus: 'up' },
  { id: 'web', name: 'Website', currentStatus: 'down' },
  { id: 'db', name: 'Database', currentStatus: null, lastStatus: 'degraded' },
  { id: 'off', name: 'Legacy', currentStatus: 'down', active: false },
  { id: 'odd', name: '  ', currentStatus: 'sideways' },
];

describe('joinPageMonitors', () => {
  it('orders by sortOrder, then label, then id; missing sortOrder last', () => {
    const rows = joinPageMonitors(
      [
        link('l1', 'web', { sortOrder: 2 }),
        link('l2', 'api', { sortOrder: 1 }),
        link('l3', 'db', { sortOrder: 2, displayName: 'Alpha store' }),
        link('l4', 'off'),
        link('l5', 'odd', { displayName: 'Aardvark' }),
      ],
      monitors,
    );
    expect(rows.map((row) => row.linkId)).toEqual(['l2', 'l3', 'l1', 'l5', 'l4']);
  });

  it('orders labels naturally and case-insensitively', () => {
    const rows = joinPageMonitors(
      [link('a', 'x1', { displayName: 'node 10' }), link('b', 'x2', { displayName: 'Node 9' }), link('c', 'x3', { displayName: 'alpha' })],
      [],
    );
    expect(rows.map((row) => row.label)).toEqual(['alpha', 'Node 9', 'node 10']);
  });

  it.each<[string, PageMonitor, string]>([
    ['display name first', link('l', 'api', { displayName: 'Public API', monitor: { id: 'api', name: 'Link name' } }), 'Public API'],
    ['display name trimmed', link('l', 'api', { displayName: '  Public API ' }), 'Public API'],
    ['blank display name falls back to the link monitor name', link('l', 'api', { displayName: ' ', monitor: { id: 'api', name: 'Link name' } }), 'Link name'],
    ['then to the listed monitor name', link('l', 'api', { displayName: null }), 'API'],
    ['blank names everywhere', link('l', 'odd', { monitor: { id: 'odd', name: '' } }), UNNAMED_SERVICE],
    ['missing monitor without names', link('l', 'gone'), UNNAMED_SERVICE],
    ['missing monitor with a link name', link('l', 'gone', { monitor: { id: 'gone', name: 'Old thing' } }), 'Old thing'],
  ])('label: %s', (_name, pageLink, expected) => {
    expect(joinPageMonitors([pageLink], monitors)[0]?.label).toBe(expected);
  });

  it.each([
    ['api', false, 'up', 'Operational'],
    ['web', false, 'down', 'Down'],
    ['db', false, 'degraded', 'Degraded performance'],
    ['off', false, 'paused', 'Paused'],
    ['odd', false, 'unknown', 'Status unknown'],
    ['gone', false, 'unknown', 'Status unknown'],
    ['web', true, 'maintenance', 'Under maintenance'],
    ['gone', true, 'maintenance', 'Under maintenance'],
  ])('status of %s (maintenance %s) is %s', (monitorId, inMaintenance, status, statusLabel) => {
    const rows = joinPageMonitors([link('l', monitorId)], monitors, { underMaintenance: new Set(inMaintenance ? [monitorId] : []) });
    expect(rows[0]).toMatchObject({ monitorId, status, statusLabel });
  });

  it('keeps links to missing monitors, with monitor null', () => {
    const rows = joinPageMonitors([link('l1', 'gone'), link('l2', 'api')], monitors);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.monitorId === 'gone')?.monitor).toBeNull();
    expect(rows.find((row) => row.monitorId === 'api')?.monitor).toBe(monitors[0]);
  });

  it('handles empty inputs and non-finite sort orders', () => {
    expect(joinPageMonitors([], monitors)).toEqual([]);
    const rows = joinPageMonitors([link('a', 'api', { sortOrder: Number.NaN }), link('b', 'web', { sortOrder: 0 })], []);
    expect(rows.map((row) => row.linkId)).toEqual(['b', 'a']);
  });
});

describe('pageMonitorIds', () => {
  it('collects the linked monitor ids', () => {
    expect([...pageMonitorIds([link('1', 'a'), link('2', 'b'), link('3', 'a')])]).toEqual(['a', 'b']);
    expect(pageMonitorIds([]).size).toBe(0);
  });
});

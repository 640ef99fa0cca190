import { describe, expect, it } from 'vitest';
import type { Incident, IncidentUpdate } from '../../../src/contract/index.ts';
import {
  activeIncidents,
  incidentsByMonth,
  incidentsForMonitor,
  incidentsForPage,
  incidentsInMonth,
  incidentsPerDay,
  incidentStatusLabel,
  isIncidentActive,
  isMonthKey,
  listIncidentMonths,
  monthNavigation,
  normalizeIncidentStatus,
  normalizeSeverity,
  pastIncidents,
  severityLabel,
  shiftMonth,
  sortedTimeline,
} from '../../../src/site/lib/incidents.ts';

const NOW = new Date('2026-11-22T14:00:00Z');

function incident(id: string, fields: Partial<Incident> & { monitorIds?: string[] } = {}): Incident {
  const { monitorIds = ['m1'], ...rest } = fields;
  return {
    id,
    title: `Incident ${id}`,
    status: 'investigating',
    severity: 'minor',
    startedAt: '2026-11-22T10:00:00Z',
    resolvedAt: null,
    updates: [],
    monitors: monitorIds.map((monitorId) => ({ monitor: { id: monitorId, name: monitorId } })),
    ...rest,
  };
}

const ids = (list: readonly { id: string }[]) => list.map((entry) => entry.id);

describe('normalizing', () => {
  it.each([
    ['investigating', 'investigating'],
    ['identified', 'identified'],
    ['monitoring', 'monitoring'],
    ['resolved', 'resolved'],
    [' Resolved ', 'resolved'],
    ['closed', 'investigating'],
    ['', 'investigating'],
    [null, 'investigating'],
    ['toString', 'investigating'],
  ])('status %j -> %s', (input, expected) => {
    expect(normalizeIncidentStatus(input)).toBe(expected);
  });

  it.each([
    ['minor', 'minor'],
    ['major', 'major'],
    ['critical', 'critical'],
    ['CRITICAL', 'critical'],
    ['sev1', 'major'],
    [undefined, 'major'],
    [3, 'major'],
  ])('severity %j -> %s', (input, expected) => {
    expect(normalizeSeverity(input)).toBe(expected);
  });

  it.each([
    ['monitoring', 'Monitoring'],
    ['nonsense', 'Investigating'],
    ['resolved', 'Resolved'],
  ])('status label %s -> %s', (input, expected) => {
    expect(incidentStatusLabel(input)).toBe(expected);
  });

  it.each([
    ['critical', 'Critical'],
    ['minor', 'Minor'],
    ['??', 'Major'],
  ])('severity label %s -> %s', (input, expected) => {
    expect(severityLabel(input)).toBe(expected);
  });

  it.each([
    ['resolved', false],
    ['RESOLVED', false],
    ['monitoring', true],
    ['weird', true],
  ])('status %s is active: %s', (status, active) => {
    expect(isIncidentActive({ status })).toBe(active);
  });
});

describe('incidentsForPage and incidentsForMonitor', () => {
  const list = [
    incident('a', { monitorIds: ['m1'] }),
    incident('b', { monitorIds: ['m2', 'm3'] }),
    incident('c', { monitorIds: [] }),
    incident('d', { monitorIds: ['other'] }),
  ];

  it.each([
    [['m1'], ['a']],
    [['m3'], ['b']],
    [['m1', 'm2'], ['a', 'b']],
    [[], []],
    [['nothing'], []],
  ])('page monitors %j -> %j (monitor-less incidents never shown)', (pageIds, expected) => {
    expect(ids(incidentsForPage(list, new Set(pageIds)))).toEqual(expected);
  });

  it('filters by one monitor', () => {
    expect(ids(incidentsForMonitor(list, 'm2'))).toEqual(['b']);
    expect(incidentsForMonitor(list, 'zzz')).toEqual([]);
  });
});

describe('activeIncidents', () => {
  it('keeps unresolved incidents, most recently started first, bad dates last', () => {
    const list = [
      incident('old', { startedAt: '2026-11-20T00:00:00Z' }),
      incident('done', { status: 'resolved', startedAt: '2026-11-22T13:00:00Z' }),
      incident('new', { startedAt: '2026-11-22T12:00:00Z', status: 'monitoring' }),
      incident('broken', { startedAt: 'whenever' }),
      incident('odd', { startedAt: '2026-11-21T00:00:00Z', status: 'mystery' }),
    ];
    expect(ids(activeIncidents(list))).toEqual(['new', 'odd', 'old', 'broken']);
  });

  it('orders incidents started at the same time by id', () => {
    const list = [incident('b'), incident('a'), incident('c')];
    expect(ids(activeIncidents(list))).toEqual(['a', 'b', 'c']);
  });

  it('is empty for no incidents', () => {
    expect(activeIncidents([])).toEqual([]);
  });
});

describe('pastIncidents', () => {
  const list = [
    incident('active', { startedAt: '2026-11-01T00:00:00Z' }),
    incident('recent', { status: 'resolved', startedAt: '2026-11-20T00:00:00Z', resolvedAt: '2026-11-20T02:00:00Z' }),
    incident('long', { status: 'resolved', startedAt: '2026-10-01T00:00:00Z', resolvedAt: '2026-11-10T00:00:00Z' }),
    incident('edge', { status: 'resolved', startedAt: '2026-11-08T13:00:00Z', resolvedAt: '2026-11-08T14:00:00Z' }),
    incident('stale', { status: 'resolved', startedAt: '2026-11-08T12:00:00Z', resolvedAt: '2026-11-08T13:59:59Z' }),
    incident('no-resolved-at', {
      status: 'resolved',
      startedAt: '2026-11-01T00:00:00Z',
      updates: [{ id: 'u', status: 'resolved', message: 'ok', createdAt: '2026-11-21T00:00:00Z' }],
    }),
    incident('no-dates', { status: 'resolved', startedAt: 'x' }),
  ];

  it('keeps resolved incidents that ended in the last 14 days, most recently started first', () => {
    expect(ids(pastIncidents(list, { now: NOW }))).toEqual(['recent', 'edge', 'no-resolved-at', 'long']);
  });

  it('honours a custom window', () => {
    expect(ids(pastIncidents(list, { now: NOW, days: 3 }))).toEqual(['recent', 'no-resolved-at']);
  });

  it('rejects a bad window', () => {
    expect(() => pastIncidents(list, { now: NOW, days: 0 })).toThrow(RangeError);
  });
});

describe('months', () => {
  const list = [
    incident('nov-a', { startedAt: '2026-11-22T10:00:00Z' }),
    incident('nov-b', { startedAt: '2026-11-01T00:00:00Z', status: 'resolved' }),
    incident('oct', { startedAt: '2026-10-31T23:59:59Z', status: 'resolved' }),
    incident('oct-local', { startedAt: '2026-11-01T00:30:00+01:00', status: 'resolved' }), // 31 Oct UTC
    incident('aug', { startedAt: '2026-08-15T00:00:00Z', status: 'resolved' }),
    incident('bad', { startedAt: 'nope' }),
  ];

  it('groups by UTC start month, newest month and incident first', () => {
    expect(incidentsByMonth(list).map((group) => [group.month, ids(group.incidents)])).toEqual([
      ['2026-11', ['nov-a', 'nov-b']],
      ['2026-10', ['oct', 'oct-local']],
      ['2026-08', ['aug']],
    ]);
  });

  it('groups by the start month of the page zone when given one', () => {
    // oct (31 Oct 23:59:59 UTC) is already November at +05:30; nov-b (1 Nov 00:00 UTC) is still October in New York.
    expect(incidentsByMonth(list, 'Asia/Kolkata').map((group) => [group.month, ids(group.incidents)])).toEqual([
      ['2026-11', ['nov-a', 'nov-b', 'oct', 'oct-local']],
      ['2026-08', ['aug']],
    ]);
    expect(ids(incidentsInMonth(list, '2026-10', 'America/New_York'))).toEqual(['nov-b', 'oct', 'oct-local']);
    expect(listIncidentMonths(list, 'America/New_York')).toEqual(['2026-11', '2026-10', '2026-08']);
  });

  it('lists months and the incidents of one', () => {
    expect(listIncidentMonths(list)).toEqual(['2026-11', '2026-10', '2026-08']);
    expect(ids(incidentsInMonth(list, '2026-10'))).toEqual(['oct', 'oct-local']);
    expect(incidentsInMonth(list, '2026-09')).toEqual([]);
    expect(incidentsInMonth(list, 'garbage')).toEqual([]);
    expect(incidentsByMonth([])).toEqual([]);
  });

  it.each([
    ['2026-11', { newer: null, older: '2026-10' }],
    ['2026-10', { newer: '2026-11', older: '2026-08' }],
    ['2026-09', { newer: '2026-10', older: '2026-08' }],
    ['2026-08', { newer: '2026-10', older: null }],
    ['2027-05', { newer: null, older: '2026-11' }],
  ])('navigation from %s', (current, expected) => {
    expect(monthNavigation(['2026-11', '2026-10', '2026-08', 'junk'], current)).toEqual(expected);
  });

  it.each([
    ['2026-11', true],
    ['2026-01', true],
    ['2026-13', false],
    ['2026-00', false],
    ['2026-1', false],
    ['26-11', false],
    ['2026-11 ', false],
    [202611, false],
  ])('isMonthKey(%j) is %s', (value, expected) => {
    expect(isMonthKey(value)).toBe(expected);
  });

  it.each([
    ['2026-11', 1, '2026-12'],
    ['2026-12', 1, '2027-01'],
    ['2026-01', -1, '2025-12'],
    ['2026-03', -15, '2024-12'],
    ['2026-03', 0, '2026-03'],
    ['2026-3', 1, null],
    ['2026-03', 0.5, null],
    ['0000-01', -1, null],
  ])('shiftMonth(%s, %i) -> %s', (month, delta, expected) => {
    expect(shiftMonth(month, delta)).toBe(expected);
  });
});

describe('sortedTimeline', () => {
  const update = (id: string, createdAt: string, status = 'investigating'): IncidentUpdate => ({ id, status, message: id, createdAt });

  it('orders newest first, normalizes statuses, puts unreadable dates last', () => {
    const timeline = sortedTimeline([
      update('first', '2026-11-22T10:00:00Z'),
      update('broken', 'soon', 'resolved'),
      update('third', '2026-11-22T12:00:00Z', 'resolved'),
      update('second', '2026-11-22T11:00:00Z', 'strange'),
    ]);
    expect(timeline.map((entry) => [entry.id, entry.status])).toEqual([
      ['third', 'resolved'],
      ['second', 'investigating'],
      ['first', 'investigating'],
      ['broken', 'resolved'],
    ]);
  });

  it('puts the later-listed of two simultaneous updates first', () => {
    const timeline = sortedTimeline([update('a', '2026-11-22T10:00:00Z'), update('b', '2026-11-22T10:00:00Z')]);
    expect(ids(timeline)).toEqual(['b', 'a']);
  });

  it('does not modify its input', () => {
    const input = [update('a', '2026-11-22T10:00:00Z'), update('b', '2026-11-22T11:00:00Z', 'RESOLVED')];
    sortedTimeline(input);
    expect(ids(input)).toEqual(['a', 'b']);
    expect(input[1]?.status).toBe('RESOLVED');
  });

  it('is empty for no updates', () => {
    expect(sortedTimeline([])).toEqual([]);
  });
});

describe('incidentsPerDay', () => {
  it('counts incidents overlapping each UTC day, active ones until now', () => {
    const list = [
      incident('span', { status: 'resolved', startedAt: '2026-11-19T23:00:00Z', resolvedAt: '2026-11-21T00:00:00Z' }),
      incident('active', { startedAt: '2026-11-21T23:59:59Z' }),
      incident('one-day', { status: 'resolved', startedAt: '2026-11-22T00:00:00Z', resolvedAt: '2026-11-22T00:10:00Z' }),
      incident('ancient', { status: 'resolved', startedAt: '2025-01-01T00:00:00Z', resolvedAt: '2025-01-02T00:00:00Z' }),
      incident('future', { startedAt: '2026-12-01T00:00:00Z' }),
      incident('before-window', { status: 'resolved', startedAt: '2026-11-10T00:00:00Z', resolvedAt: '2026-11-18T12:00:00Z' }),
      incident('bad', { startedAt: 'x' }),
    ];
    expect(Object.fromEntries(incidentsPerDay(list, 5, NOW))).toEqual({
      '2026-11-18': 1,
      '2026-11-19': 1,
      '2026-11-20': 1,
      '2026-11-21': 2,
      '2026-11-22': 2,
    });
  });

  it('lists every day with zero when there are no incidents', () => {
    const days = incidentsPerDay([], 90, NOW);
    expect(days.size).toBe(90);
    expect([...days.values()].every((count) => count === 0)).toBe(true);
    expect([...days.keys()][0]).toBe('2026-08-25');
  });

  it('counts days of the page zone: a late-evening incident stays on its local day', () => {
    // 21 Nov 23:00-23:50 in New York is 22 Nov 04:00-04:50 UTC.
    const list = [incident('late', { status: 'resolved', startedAt: '2026-11-22T04:00:00Z', resolvedAt: '2026-11-22T04:50:00Z' })];
    expect(Object.fromEntries(incidentsPerDay(list, 2, NOW, 'America/New_York'))).toEqual({ '2026-11-21': 1, '2026-11-22': 0 });
    expect(Object.fromEntries(incidentsPerDay(list, 2, NOW))).toEqual({ '2026-11-21': 0, '2026-11-22': 1 });
    // Auckland is already on 23 Nov at NOW; the incident was in its afternoon of 22 Nov.
    expect(Object.fromEntries(incidentsPerDay(list, 2, NOW, 'Pacific/Auckland'))).toEqual({ '2026-11-22': 1, '2026-11-23': 0 });
  });

  it('counts a resolved incident without resolvedAt on its start day only', () => {
    const list = [incident('r', { status: 'resolved', startedAt: '2026-11-20T05:00:00Z' })];
    expect(Object.fromEntries(incidentsPerDay(list, 3, NOW))).toEqual({ '2026-11-20': 1, '2026-11-21': 0, '2026-11-22': 0 });
  });
});

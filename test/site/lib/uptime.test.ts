import { describe, expect, it } from 'vitest';
import {
  aggregateChecksByDay,
  dailyUptime,
  dailyUptimeFromAggregates,
  formatUptime,
  mergeDayAggregates,
  NO_UPTIME_DATA,
  uptimeLevel,
  windowUptime,
  type DayLevel,
} from '../../../src/site/lib/uptime.ts';

const NOW = new Date('2026-11-22T14:05:00Z');

describe('uptimeLevel', () => {
  it.each<[number | null, DayLevel]>([
    [null, 'none'],
    [Number.NaN, 'none'],
    [100, 'up'],
    [99.9, 'up'],
    [99.89, 'minor'],
    [99, 'minor'],
    [98.99, 'major'],
    [95, 'major'],
    [94.99, 'down'],
    [0, 'down'],
  ])('%s -> %s', (uptime, level) => {
    expect(uptimeLevel(uptime)).toBe(level);
  });
});

describe('aggregateChecksByDay', () => {
  it('counts checks per UTC day, split exactly at midnight', () => {
    const aggregates = aggregateChecksByDay([
      { status: 'up', checkedAt: '2026-11-21T23:59:59.999Z' },
      { status: 'up', checkedAt: '2026-11-22T00:00:00.000Z' },
      { status: 'down', checkedAt: '2026-11-22T12:00:00Z' },
      { status: 'UP', checkedAt: '2026-11-22T01:30:00+02:00' }, // 21 Nov 23:30 UTC
      { status: 'degraded', checkedAt: '2026-11-22T13:00:00Z' }, // not 'up': never raises uptime
      { status: 'up', checkedAt: 'not a time' },
    ]);
    expect(Object.fromEntries(aggregates)).toEqual({
      '2026-11-21': { checks: 2, up: 2 },
      '2026-11-22': { checks: 3, up: 1 },
    });
  });

  it('is empty for no checks', () => {
    expect(aggregateChecksByDay([]).size).toBe(0);
  });
});

describe('mergeDayAggregates', () => {
  it('adds counters of the same day and keeps the others', () => {
    const cached = new Map([['2026-11-20', { checks: 10, up: 9 }], ['2026-11-21', { checks: 4, up: 4 }]]);
    const fresh = new Map([['2026-11-21', { checks: 2, up: 1 }], ['2026-11-22', { checks: 1, up: 1 }]]);
    expect(Object.fromEntries(mergeDayAggregates(cached, fresh))).toEqual({
      '2026-11-20': { checks: 10, up: 9 },
      '2026-11-21': { checks: 6, up: 5 },
      '2026-11-22': { checks: 1, up: 1 },
    });
    expect(cached.get('2026-11-21')).toEqual({ checks: 4, up: 4 }); // inputs untouched
  });

  it('equals aggregating all checks at once', () => {
    const checks = Array.from({ length: 50 }, (_, index) => ({
      status: index % 7 === 0 ? 'down' : 'up',
      checkedAt: new Date(Date.UTC(2026, 10, 20) + index * 3_600_000).toISOString(),
    }));
    const whole = aggregateChecksByDay(checks);
    const parts = mergeDayAggregates(aggregateChecksByDay(checks.slice(0, 17)), aggregateChecksByDay(checks.slice(17)));
    expect(parts).toEqual(whole);
  });
});

describe('dailyUptime', () => {
  it.each([1, 7, 30, 90])('returns exactly %i days, oldest first, ending today', (days) => {
    const result = dailyUptime([], { days, now: NOW });
    expect(result).toHaveLength(days);
    expect(result[result.length - 1]?.date).toBe('2026-11-22');
    const dates = result.map((day) => day.date);
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates).size).toBe(days);
  });

  it('starts the 90-day window 89 days before today', () => {
    expect(dailyUptime([], { days: 90, now: NOW })[0]?.date).toBe('2026-08-25');
  });

  it('reports no data as null, not 0%', () => {
    const [day] = dailyUptime([], { days: 1, now: NOW });
    expect(day).toEqual({ date: '2026-11-22', checks: 0, up: 0, uptime: null, level: 'none', incidents: 0 });
  });

  it('computes per-day uptime, level and incidents', () => {
    const checks = [
      ...Array.from({ length: 1000 }, (_, index) => ({ status: index < 999 ? 'up' : 'down', checkedAt: '2026-11-21T10:00:00Z' })),
      ...Array.from({ length: 10 }, (_, index) => ({ status: index < 9 ? 'up' : 'down', checkedAt: '2026-11-22T00:00:00Z' })),
      { status: 'up', checkedAt: '2026-11-23T00:00:00Z' }, // tomorrow: outside the window
      { status: 'down', checkedAt: '2026-08-01T00:00:00Z' }, // before the window
    ];
    const result = dailyUptime(checks, { days: 3, now: NOW, incidentsByDay: new Map([['2026-11-22', 2], ['2026-11-19', 5]]) });
    expect(result).toEqual([
      { date: '2026-11-20', checks: 0, up: 0, uptime: null, level: 'none', incidents: 0 },
      { date: '2026-11-21', checks: 1000, up: 999, uptime: 99.9, level: 'up', incidents: 0 },
      { date: '2026-11-22', checks: 10, up: 9, uptime: 90, level: 'down', incidents: 2 },
    ]);
  });

  it('treats untrustworthy counters as no data', () => {
    const aggregates = new Map([
      ['2026-11-20', { checks: 2, up: 3 }],
      ['2026-11-21', { checks: -1, up: 0 }],
      ['2026-11-22', { checks: Number.NaN, up: 0 }],
    ]);
    const result = dailyUptimeFromAggregates(aggregates, { days: 3, now: NOW, incidentsByDay: new Map([['2026-11-22', -4]]) });
    expect(result.map((day) => [day.checks, day.uptime, day.level, day.incidents])).toEqual([
      [0, null, 'none', 0],
      [0, null, 'none', 0],
      [0, null, 'none', 0],
    ]);
  });

  it.each([0, -3, 2.5, Number.NaN])('rejects days = %s', (days) => {
    expect(() => dailyUptime([], { days, now: NOW })).toThrow(RangeError);
  });
});

describe('days of the page zone', () => {
  it('counts a check at 23:30 local on its local day, not the next one (and 00:00 on the next)', () => {
    const checks = [
      { status: 'down', checkedAt: '2026-11-22T04:30:00Z' }, // 21 Nov, 23:30 in New York
      { status: 'up', checkedAt: '2026-11-22T05:00:00Z' }, // 22 Nov, 00:00
    ];
    expect(Object.fromEntries(aggregateChecksByDay(checks, 'America/New_York'))).toEqual({
      '2026-11-21': { checks: 1, up: 0 },
      '2026-11-22': { checks: 1, up: 1 },
    });
    expect(Object.fromEntries(aggregateChecksByDay(checks))).toEqual({ '2026-11-22': { checks: 2, up: 1 } });
  });

  it.each([
    ['Asia/Kolkata', '2026-11-21T18:00:00Z', '2026-11-21T18:30:00Z'], // 23:30 and 00:00 at +05:30
    ['Asia/Kathmandu', '2026-11-21T18:14:00Z', '2026-11-21T18:15:00Z'], // 23:59 and 00:00 at +05:45
    ['Pacific/Auckland', '2026-11-21T10:59:00Z', '2026-11-21T11:00:00Z'], // 23:59 and 00:00 at +13
  ])('in %s, the window ends with the local day and splits at local midnight', (timeZone, lastOfDay, firstOfNext) => {
    const checks = [{ status: 'down', checkedAt: lastOfDay }, { status: 'up', checkedAt: firstOfNext }];
    const result = dailyUptime(checks, { days: 3, now: NOW, timeZone });
    // NOW is 22 Nov 14:05 UTC: already 23 Nov in Auckland, still 22 Nov in India and Nepal.
    const today = timeZone === 'Pacific/Auckland' ? '2026-11-23' : '2026-11-22';
    expect(result.at(-1)?.date).toBe(today);
    const byDate = Object.fromEntries(result.map((day) => [day.date, [day.checks, day.uptime]]));
    expect(byDate['2026-11-21']).toEqual([1, 0]);
    expect(byDate['2026-11-22']).toEqual([1, 100]);
  });

  it('counts a 25-hour day whole: checks every hour of New York\'s fall-back day all land on it', () => {
    const start = Date.parse('2026-11-01T04:00:00Z'); // 1 Nov, 00:00 EDT
    const checks = Array.from({ length: 27 }, (_, hour) => ({ status: 'up', checkedAt: new Date(start + (hour - 1) * 3_600_000).toISOString() }));
    const days = aggregateChecksByDay(checks, 'America/New_York');
    expect(Object.fromEntries(days)).toEqual({ '2026-10-31': { checks: 1, up: 1 }, '2026-11-01': { checks: 25, up: 25 }, '2026-11-02': { checks: 1, up: 1 } });
  });
});

describe('windowUptime', () => {
  it.each([
    ['no days', [], null],
    ['days without checks', [{ checks: 0, up: 0 }, { checks: 0, up: 0 }], null],
    ['weighted by checks, not averaged per day', [{ checks: 1000, up: 1000 }, { checks: 10, up: 0 }], (1000 / 1010) * 100],
    ['all up', [{ checks: 5, up: 5 }], 100],
  ])('%s', (_name, days, expected) => {
    expect(windowUptime(days)).toBe(expected);
  });
});

describe('formatUptime', () => {
  it.each([
    [100, '100.00%'],
    [99.999, '99.99%'],
    [99.99999999999, '99.99%'],
    [99.95, '99.95%'],
    [99.959, '99.95%'],
    [0.29, '0.29%'],
    [57.1, '57.10%'],
    [0, '0.00%'],
    [(1000 / 1010) * 100, '99.00%'],
    [120, '100.00%'],
    [-3, '0.00%'],
    [null, NO_UPTIME_DATA],
    [undefined, NO_UPTIME_DATA],
    [Number.NaN, NO_UPTIME_DATA],
    [Number.POSITIVE_INFINITY, NO_UPTIME_DATA],
  ])('%s -> %s', (input, expected) => {
    expect(formatUptime(input)).toBe(expected);
  });
});

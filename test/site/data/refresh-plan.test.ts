import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_PACE, freshnessMs, LISTS, listsToRead, monitorsToCatchUp, PAGES_WANTED, PUSH_WORKING_MS, type HistoryMark } from '../../../src/site/data/refresh-plan.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

describe('listsToRead', () => {
  it('reads every list for a poll, or a push that names nothing or something unknown', () => {
    expect([...listsToRead(null)]).toEqual([...LISTS]);
    expect([...listsToRead([])]).toEqual([...LISTS]);
    expect([...listsToRead([null])]).toEqual([...LISTS]);
    expect([...listsToRead(['onMonitorDown', 'onSomethingNew'])]).toEqual([...LISTS]);
  });

  it('reads only what the events can have changed, once for many events', () => {
    expect([...listsToRead(['onIncidentUpdated'])]).toEqual(['incidents']);
    expect(new Set(listsToRead(Array.from({ length: 50 }, () => 'onMonitorDown')))).toEqual(new Set(['monitors', 'incidents']));
    expect(new Set(listsToRead(['onMaintenanceStarted', 'onIncidentCreated']))).toEqual(new Set(['maintenance', 'monitors', 'incidents']));
  });

  it('reads the pages list alone when the TLS gate asks for it', () => {
    expect([...listsToRead([PAGES_WANTED])]).toEqual(['pages']);
    expect(new Set(listsToRead([PAGES_WANTED, 'onIncidentCreated']))).toEqual(new Set(['pages', 'incidents']));
  });
});

describe('monitorsToCatchUp', () => {
  const pace = { intervalMs: 300_000, maxCatchUpsPerRefresh: 2 };

  it('skips a monitor whose lastCheckedAt has not moved since its last catch-up, however long ago', () => {
    const marks = new Map<string, HistoryMark>([['m1', { seenLastCheckedAt: minutesAgo(60), caughtUpAt: minutesAgo(59) }]]);
    expect(monitorsToCatchUp([{ id: 'm1', lastCheckedAt: minutesAgo(60) }], marks, NOW, pace)).toEqual([]);
  });

  it('catches up a monitor that was checked again, but not sooner than the interval', () => {
    const marks = new Map<string, HistoryMark>([
      ['recent', { seenLastCheckedAt: minutesAgo(3), caughtUpAt: minutesAgo(2) }],
      ['due', { seenLastCheckedAt: minutesAgo(6), caughtUpAt: minutesAgo(5) }],
    ]);
    const monitors = [
      { id: 'recent', lastCheckedAt: minutesAgo(1) },
      { id: 'due', lastCheckedAt: minutesAgo(1) },
    ];
    expect(monitorsToCatchUp(monitors, marks, NOW, pace)).toEqual(['due']);
  });

  it('always starts a monitor seen for the first time; spreads the due ones, longest waiting first', () => {
    const marks = new Map<string, HistoryMark>([
      ['a', { seenLastCheckedAt: 'x', caughtUpAt: minutesAgo(6) }],
      ['b', { seenLastCheckedAt: 'x', caughtUpAt: minutesAgo(30) }],
      ['c', { seenLastCheckedAt: 'x', caughtUpAt: minutesAgo(10) }],
      ['legacy', {}],
    ]);
    const monitors = ['a', 'b', 'c', 'new', 'legacy'].map((id) => ({ id, lastCheckedAt: 'y' }));
    expect(monitorsToCatchUp(monitors, marks, NOW, pace)).toEqual(['new', 'legacy', 'b', 'c']);
  });

  it('treats a monitor whose API leaves lastCheckedAt out as moved, at the calm pace', () => {
    const marks = new Map<string, HistoryMark>([['m', { seenLastCheckedAt: null, caughtUpAt: minutesAgo(1) }]]);
    expect(monitorsToCatchUp([{ id: 'm' }], marks, NOW)).toEqual([]);
    expect(monitorsToCatchUp([{ id: 'm' }], marks, NOW + DEFAULT_HISTORY_PACE.intervalMs)).toEqual(['m']);
  });

  it('never reads a never-checked (paused) monitor again while it stays unchecked, and does once it is checked', () => {
    const marks = new Map<string, HistoryMark>([['m', { seenLastCheckedAt: null, caughtUpAt: minutesAgo(60) }]]);
    expect(monitorsToCatchUp([{ id: 'm', lastCheckedAt: null }], marks, NOW)).toEqual([]);
    expect(monitorsToCatchUp([{ id: 'm', lastCheckedAt: minutesAgo(1) }], marks, NOW)).toEqual(['m']);
  });

  it('at 50 monitors each checked every minute, reads about ten check pages a minute', () => {
    const marks = new Map<string, HistoryMark>();
    const ids = Array.from({ length: 50 }, (_, index) => `m${index}`);
    let pages = 0;
    // A refresh every 30 s for an hour (polling without push).
    for (let second = 0; second < 3600; second += 30) {
      const now = NOW + second * 1000;
      const checkedAt = new Date(now - (now % 60_000)).toISOString();
      const due = monitorsToCatchUp(ids.map((id) => ({ id, lastCheckedAt: checkedAt })), marks, now);
      pages += due.length;
      for (const id of due) marks.set(id, { seenLastCheckedAt: checkedAt, caughtUpAt: new Date(now).toISOString() });
    }
    expect(pages / 60).toBeLessThanOrEqual(11);
    expect(pages / 60).toBeGreaterThanOrEqual(9);
  });
});

describe('freshnessMs', () => {
  const base = { freshMs: 30_000, pushPollMs: 300_000, nowMs: NOW };
  it('polls only as a safety net while push works, within the hour of its last sign', () => {
    expect(freshnessMs({ ...base, lastPushSignMs: NOW - 1_000 })).toBe(300_000);
    expect(freshnessMs({ ...base, lastPushSignMs: NOW - PUSH_WORKING_MS })).toBe(300_000);
  });

  it('keeps CACHE_FRESH_SECONDS without push, or when push went quiet for over an hour', () => {
    expect(freshnessMs({ ...base, lastPushSignMs: null })).toBe(30_000);
    expect(freshnessMs({ ...base, lastPushSignMs: NOW - PUSH_WORKING_MS - 1 })).toBe(30_000);
  });

  it('never polls more often with push than without', () => {
    expect(freshnessMs({ freshMs: 600_000, pushPollMs: 300_000, nowMs: NOW, lastPushSignMs: NOW })).toBe(600_000);
  });

  it('counts from the last read of every list: refreshes of a few lists never put the poll off', () => {
    // A pages-only read 280 s after the last full read, with push working: fresh for 20 s more, not 300.
    expect(freshnessMs({ ...base, lastPushSignMs: NOW, lastFullReadMs: NOW - 280_000 })).toBe(20_000);
    expect(freshnessMs({ ...base, lastPushSignMs: null, lastFullReadMs: NOW - 10_000 })).toBe(20_000);
    // Overdue: stale at once (1 ms, never 0, which the cache would read as "forever").
    expect(freshnessMs({ ...base, lastPushSignMs: NOW, lastFullReadMs: NOW - 400_000 })).toBe(1);
  });
});

describe('page changes', () => {
  it('the embedded API\'s onStatusPageChanged reads the pages list alone, as the site\'s own ask does', () => {
    expect([...listsToRead(['onStatusPageChanged'])]).toEqual(['pages']);
    expect([...listsToRead([PAGES_WANTED])]).toEqual(['pages']);
    expect([...listsToRead(['onStatusPageChanged', 'onIncidentCreated'])].sort()).toEqual(['incidents', 'pages']);
  });
});

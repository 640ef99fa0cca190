import { describe, expect, it } from 'vitest';
import type { Check } from '../../../src/contract/index.ts';
import { alignHistories, emptyHistory, historyDays, refreshHistories, type ChecksPageFetcher, type MonitorHistory } from '../../../src/site/data/uptime-history.ts';

const HOUR = 3_600_000;

/** An API-like check list for one monitor: newest first, paged by offset, growing over time. */
function checkList(initial: Check[]) {
  const checks = [...initial];
  const calls: { offset: number; limit: number }[] = [];
  const fetchPage: ChecksPageFetcher = async (_id, offset, limit) => {
    calls.push({ offset, limit });
    const sorted = [...checks].sort((a, b) => b.checkedAt.localeCompare(a.checkedAt));
    return { checks: sorted.slice(offset, offset + limit), hasMore: offset + limit < sorted.length };
  };
  return { checks, calls, fetchPage };
}

function hourly(from: number, count: number, status: (index: number) => string = () => 'up'): Check[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `c${from + index * HOUR}`,
    monitorId: 'm1',
    status: status(index),
    latency: 100 + index,
    checkedAt: new Date(from + index * HOUR).toISOString(),
  }));
}

const now = new Date('2026-11-22T12:00:00.000Z');
const options = { windowDays: 90, pageSize: 10, catchUpPages: 3, recentHours: 24, maxRecentPoints: 100 };

function totals(history: MonitorHistory) {
  return Object.values(history.days).reduce((sum, day) => ({ checks: sum.checks + day.checks, up: sum.up + day.up }), { checks: 0, up: 0 });
}

describe('refreshHistories', () => {
  it('counts every check exactly once across first load and backfill', async () => {
    const start = now.getTime() - 47 * HOUR;
    const list = checkList(hourly(start, 48, (index) => (index % 4 === 0 ? 'down' : 'up')));
    const histories = new Map<string, MonitorHistory>();
    const result = await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 10, concurrency: 2, options });
    const history = histories.get('m1')!;
    expect(totals(history)).toEqual({ checks: 48, up: 36 });
    expect(history.complete).toBe(true);
    // One catch-up page, then four backfill pages (the fifth reads the end of the list).
    expect(result.requests).toBe(5);
    expect(history.days['2026-11-22']).toEqual({ checks: 13, up: 10 }); // indexes 35..47, down at 36, 40, 44
  });

  it('stops backfilling when the budget is spent and resumes on the next refresh', async () => {
    const list = checkList(hourly(now.getTime() - 59 * HOUR, 60));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 2, concurrency: 1, options });
    expect(totals(histories.get('m1')!).checks).toBe(30);
    expect(histories.get('m1')!.complete).toBe(false);
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 10, concurrency: 1, options });
    expect(totals(histories.get('m1')!).checks).toBe(60);
    expect(histories.get('m1')!.complete).toBe(true);
  });

  it('fetches only checks newer than the head on later refreshes, and does not double count', async () => {
    const list = checkList(hourly(now.getTime() - 19 * HOUR, 20));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 10, concurrency: 1, options });
    expect(totals(histories.get('m1')!).checks).toBe(20);

    list.checks.push(...hourly(now.getTime() + HOUR, 3, () => 'down'));
    list.calls.length = 0;
    const later = new Date(now.getTime() + 4 * HOUR);
    const result = await refreshHistories(histories, ['m1'], list.fetchPage, { now: later, backfillBudget: 10, concurrency: 1, options });
    expect(result.requests).toBe(1);
    expect(list.calls).toEqual([{ offset: 0, limit: 10 }]);
    expect(totals(histories.get('m1')!)).toEqual({ checks: 23, up: 20 });
  });

  it('keeps backfill aligned when new checks arrive between refreshes', async () => {
    const list = checkList(hourly(now.getTime() - 39 * HOUR, 40));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 1, concurrency: 1, options });
    list.checks.push(...hourly(now.getTime() + HOUR, 5));
    await refreshHistories(histories, ['m1'], list.fetchPage, { now: new Date(now.getTime() + 6 * HOUR), backfillBudget: 10, concurrency: 1, options });
    expect(totals(histories.get('m1')!).checks).toBe(45);
    expect(histories.get('m1')!.complete).toBe(true);
  });

  it('stops at the start of the window and forgets days that left it', async () => {
    const list = checkList(hourly(now.getTime() - 100 * 24 * HOUR, 100 * 24));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, {
      now,
      backfillBudget: 1000,
      concurrency: 1,
      options: { ...options, pageSize: 200 },
    });
    const history = histories.get('m1')!;
    expect(history.complete).toBe(true);
    expect(Object.keys(history.days).length).toBe(90);
    expect(Object.keys(history.days).sort()[0]).toBe('2026-08-25');
  });

  it('keeps the latest day of latency points for the chart, newest first', async () => {
    const list = checkList(hourly(now.getTime() - 29 * HOUR, 30));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 0, concurrency: 1, options: { ...options, pageSize: 50 } });
    const recent = histories.get('m1')!.recent;
    expect(recent.length).toBe(25);
    expect(recent[0]!.checkedAt > recent[1]!.checkedAt).toBe(true);
  });

  it('forgets monitors no longer tracked and skips checks with unreadable times', async () => {
    const checks = hourly(now.getTime() - 2 * HOUR, 3);
    checks[1] = { ...checks[1]!, checkedAt: 'yesterday' };
    const list = checkList(checks);
    const histories = new Map<string, MonitorHistory>([['gone', { days: {}, headAt: null, headIds: [], tailAt: null, tailIds: [], backfillOffset: 0, complete: true, recent: [] }]]);
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 5, concurrency: 1, options });
    expect([...histories.keys()]).toEqual(['m1']);
    expect(totals(histories.get('m1')!).checks).toBe(2);
  });

  it('stops at the first failing page, keeps what was counted, and leaves no work running', async () => {
    const list = checkList(hourly(now.getTime() - 99 * HOUR, 100));
    let inFlight = 0;
    let calls = 0;
    const flaky: ChecksPageFetcher = async (id, offset, limit) => {
      calls += 1;
      inFlight += 1;
      try {
        await new Promise((resolve) => setTimeout(resolve, offset === 30 ? 1 : 10));
        if (offset === 30) throw new Error('429 rate_limited');
        return await list.fetchPage(id, offset, limit);
      } finally {
        inFlight -= 1;
      }
    };
    const histories = new Map<string, MonitorHistory>();
    const result = await refreshHistories(histories, ['m1'], flaky, { now, backfillBudget: 10, concurrency: 1, options });
    expect(inFlight).toBe(0);
    expect((result.error as Error).message).toBe('429 rate_limited');
    // Catch-up (offset 0) and backfill at 10 and 20 were counted; 30 failed; nothing after it ran.
    expect(totals(histories.get('m1')!).checks).toBe(30);
    expect(calls).toBe(4);
    const resumed = await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 10, concurrency: 1, options });
    expect(resumed.error).toBeNull();
    expect(totals(histories.get('m1')!).checks).toBe(100);
  });
});

describe('days of the pages\' time zones', () => {
  const zones = ['Pacific/Auckland', 'America/New_York', 'Asia/Kathmandu'];

  it('counts every check in UTC and in each zone, by that zone\'s calendar days', async () => {
    // 48 hourly checks ending at now (22 Nov 12:00 UTC = 23 Nov 01:00 in Auckland, 07:00 in New York).
    const list = checkList(hourly(now.getTime() - 47 * HOUR, 48));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 10, concurrency: 1, options, timeZones: zones });
    const history = histories.get('m1')!;
    expect(Object.keys(history.zoneDays ?? {}).sort()).toEqual([...zones].sort());
    for (const zone of ['UTC', ...zones]) {
      const days = Object.values(historyDays(history, zone));
      expect(days.reduce((sum, day) => sum + day.checks, 0), zone).toBe(48);
    }
    expect(historyDays(history, 'UTC')['2026-11-22']).toEqual({ checks: 13, up: 13 }); // 00:00..12:00
    expect(historyDays(history, 'Pacific/Auckland')['2026-11-23']).toEqual({ checks: 2, up: 2 }); // 00:00, 01:00 local
    expect(historyDays(history, 'America/New_York')['2026-11-22']).toEqual({ checks: 8, up: 8 }); // 00:00..07:00 local
    expect(historyDays(history, 'Europe/Berlin')).toEqual({});
  });

  it('starts a history again when a zone is added (its old checks cannot be recounted), and drops zones no longer used', () => {
    const histories = new Map<string, MonitorHistory>([['m1', { ...emptyHistory(), days: { '2026-11-22': { checks: 5, up: 5 } }, headAt: now.toISOString(), caughtUpAt: now.toISOString() }]]);
    alignHistories(histories, ['m1'], ['UTC']);
    expect(histories.get('m1')!.days['2026-11-22']).toEqual({ checks: 5, up: 5 });
    expect(histories.get('m1')!.zoneDays).toBeUndefined();
    alignHistories(histories, ['m1'], ['Asia/Kolkata']);
    expect(histories.get('m1')).toEqual({ ...emptyHistory(['Asia/Kolkata']), earlier: { days: { '2026-11-22': { checks: 5, up: 5 } } } });
    // With nothing marked as caught up, the refresh plan now reads it as a new monitor.
    expect(histories.get('m1')!.caughtUpAt).toBeUndefined();
    histories.get('m1')!.days['2026-11-22'] = { checks: 1, up: 1 };
    histories.get('m1')!.complete = true;
    alignHistories(histories, ['m1'], []);
    expect(histories.get('m1')!.zoneDays).toBeUndefined();
    expect(histories.get('m1')!.days['2026-11-22']).toEqual({ checks: 1, up: 1 });
  });

  it('while a history started again is read back, its earlier counters give the days not reached yet, then go', async () => {
    // Three days of hourly checks, counted in UTC only.
    const list = checkList(hourly(now.getTime() - 71 * HOUR, 72, (index) => (index < 24 ? 'down' : 'up')));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 10, concurrency: 1, options });
    const before = { ...historyDays(histories.get('m1'), 'UTC') };
    expect(before).toEqual({ '2026-11-19': { checks: 11, up: 0 }, '2026-11-20': { checks: 24, up: 11 }, '2026-11-21': { checks: 24, up: 24 }, '2026-11-22': { checks: 13, up: 13 } });
    // Berlin is added: the first page (10 checks, 03:00-12:00 UTC) is read back, nothing older yet.
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 0, concurrency: 1, options, timeZones: ['Europe/Berlin'] });
    const history = histories.get('m1')!;
    expect(history.tailAt).toBe('2026-11-22T03:00:00.000Z');
    // UTC days before the tail's day come from before; the tail's own day too, as it is not whole again yet.
    expect(historyDays(history, 'UTC')).toEqual(before);
    expect(historyDays(history, 'Europe/Berlin')).toEqual({ '2026-11-22': { checks: 10, up: 10 } });
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 2, concurrency: 1, options, timeZones: ['Europe/Berlin'] });
    expect(history.tailAt).toBe('2026-11-21T07:00:00.000Z');
    // 22 Nov has been read whole again; 21 Nov not yet.
    expect(historyDays(history, 'UTC')).toEqual(before);
    expect(history.days['2026-11-21']).toEqual({ checks: 17, up: 17 });
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 10, concurrency: 1, options, timeZones: ['Europe/Berlin'] });
    expect(history.complete).toBe(true);
    expect(history.earlier).toBeUndefined();
    expect(historyDays(history, 'UTC')).toEqual(before);
    expect(Object.values(historyDays(history, 'Europe/Berlin')).reduce((sum, day) => sum + day.checks, 0)).toBe(72);
  });

  it('backfills to the earliest first day of all zones and keeps 90 days in each', async () => {
    const list = checkList(hourly(now.getTime() - 100 * 24 * HOUR, 100 * 24));
    const histories = new Map<string, MonitorHistory>();
    await refreshHistories(histories, ['m1'], list.fetchPage, { now, backfillBudget: 1000, concurrency: 1, options: { ...options, pageSize: 200 }, timeZones: zones });
    const history = histories.get('m1')!;
    expect(history.complete).toBe(true);
    const firstDays: Record<string, string> = { UTC: '2026-08-25', 'Pacific/Auckland': '2026-08-26', 'America/New_York': '2026-08-25', 'Asia/Kathmandu': '2026-08-25' };
    for (const [zone, first] of Object.entries(firstDays)) {
      const keys = Object.keys(historyDays(history, zone)).sort();
      expect(keys.length, zone).toBe(90);
      expect(keys[0], zone).toBe(first);
      // The first day is whole in every zone: backfill went back to the earliest midnight (Kathmandu's).
      expect(historyDays(history, zone)[first]!.checks, zone).toBe(24);
    }
  });
});

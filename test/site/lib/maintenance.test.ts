import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../../../src/contract/index.ts';
import { maintenanceMonitorIds, monitorsUnderMaintenance, selectMaintenance } from '../../../src/site/lib/maintenance.ts';

const NOW = new Date('2026-11-22T14:00:00Z');

function win(id: string, status: string, scheduledStart: string, scheduledEnd: string, monitorIds: string[] = ['m1']): MaintenanceWindow {
  return {
    id,
    title: id,
    status,
    scheduledStart,
    scheduledEnd,
    monitors: monitorIds.map((monitorId) => ({ monitor: { id: monitorId, name: monitorId } })),
  };
}

const ids = (list: readonly { id: string }[]) => list.map((entry) => entry.id);
const PAGE = new Set(['m1', 'm2']);

describe('selectMaintenance', () => {
  it.each<[string, MaintenanceWindow, 'running' | 'upcoming' | 'hidden']>([
    ['in progress', win('w', 'in_progress', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z'), 'running'],
    ['in progress past its scheduled end', win('w', 'in_progress', '2026-11-22T10:00:00Z', '2026-11-22T11:00:00Z'), 'running'],
    ['in progress before its scheduled start', win('w', 'in_progress', '2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z'), 'running'],
    ['in progress with unreadable times', win('w', 'in_progress', 'x', 'y'), 'running'],
    ['scheduled and inside its window', win('w', 'scheduled', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z'), 'running'],
    ['scheduled, starting exactly now', win('w', 'scheduled', '2026-11-22T14:00:00Z', '2026-11-22T15:00:00Z'), 'running'],
    ['scheduled, ending exactly now', win('w', 'scheduled', '2026-11-22T13:00:00Z', '2026-11-22T14:00:00Z'), 'hidden'],
    ['scheduled, ended but never started', win('w', 'scheduled', '2026-11-21T13:00:00Z', '2026-11-21T14:00:00Z'), 'hidden'],
    ['scheduled in the future', win('w', 'scheduled', '2026-11-23T00:00:00Z', '2026-11-23T02:00:00Z'), 'upcoming'],
    ['scheduled exactly at the 30-day horizon', win('w', 'scheduled', '2026-12-22T14:00:00Z', '2026-12-22T16:00:00Z'), 'upcoming'],
    ['scheduled past the horizon', win('w', 'scheduled', '2026-12-22T14:00:01Z', '2026-12-22T16:00:00Z'), 'hidden'],
    ['scheduled with unreadable times', win('w', 'scheduled', 'soon', 'later'), 'hidden'],
    ['status in other case and spacing', win('w', ' Scheduled ', '2026-11-23T00:00:00Z', '2026-11-23T02:00:00Z'), 'upcoming'],
    ['completed', win('w', 'completed', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z'), 'hidden'],
    ['cancelled', win('w', 'cancelled', '2026-11-23T00:00:00Z', '2026-11-23T02:00:00Z'), 'hidden'],
    ['unknown status', win('w', 'canceled', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z'), 'hidden'],
    ['running but not on this page', win('w', 'in_progress', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z', ['m9']), 'hidden'],
    ['running with no monitors', win('w', 'in_progress', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z', []), 'hidden'],
    ['affecting one linked monitor among others', win('w', 'in_progress', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z', ['m9', 'm2']), 'running'],
  ])('%s -> %s', (_name, window, expected) => {
    const { running, upcoming } = selectMaintenance([window], PAGE, NOW);
    expect({ running: ids(running), upcoming: ids(upcoming) }).toEqual({
      running: expected === 'running' ? ['w'] : [],
      upcoming: expected === 'upcoming' ? ['w'] : [],
    });
  });

  it('reads monitorIds as well as monitors', () => {
    const window = { ...win('w', 'in_progress', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z', []), monitorIds: ['m1'] };
    expect(ids(selectMaintenance([window], PAGE, NOW).running)).toEqual(['w']);
  });

  it('orders both lists soonest first, ties by id', () => {
    const windows = [
      win('late', 'scheduled', '2026-11-30T00:00:00Z', '2026-11-30T01:00:00Z'),
      win('soon-b', 'scheduled', '2026-11-23T00:00:00Z', '2026-11-23T01:00:00Z'),
      win('soon-a', 'scheduled', '2026-11-23T00:00:00Z', '2026-11-23T01:00:00Z'),
      win('run-2', 'in_progress', '2026-11-22T13:00:00Z', '2026-11-22T15:00:00Z'),
      win('run-1', 'scheduled', '2026-11-22T12:00:00Z', '2026-11-22T15:00:00Z'),
      win('run-bad', 'in_progress', 'x', 'y'),
    ];
    const { running, upcoming } = selectMaintenance(windows, PAGE, NOW);
    expect(ids(running)).toEqual(['run-1', 'run-2', 'run-bad']);
    expect(ids(upcoming)).toEqual(['soon-a', 'soon-b', 'late']);
  });

  it('honours a custom horizon', () => {
    const windows = [win('w', 'scheduled', '2026-11-25T00:00:00Z', '2026-11-25T01:00:00Z')];
    expect(ids(selectMaintenance(windows, PAGE, NOW, { horizonDays: 2 }).upcoming)).toEqual([]);
    expect(ids(selectMaintenance(windows, PAGE, NOW, { horizonDays: 3 }).upcoming)).toEqual(['w']);
  });

  it.each([-1, Number.NaN])('rejects horizonDays %s', (horizonDays) => {
    expect(() => selectMaintenance([], PAGE, NOW, { horizonDays })).toThrow(RangeError);
  });

  it('is empty for no windows', () => {
    expect(selectMaintenance([], PAGE, NOW)).toEqual({ running: [], upcoming: [] });
  });
});

describe('monitorsUnderMaintenance', () => {
  it('collects every affected monitor of the running windows', () => {
    const running = [
      win('a', 'in_progress', 'x', 'y', ['m1', 'm2']),
      { ...win('b', 'in_progress', 'x', 'y', ['m2']), monitorIds: ['m3'] },
    ];
    expect([...monitorsUnderMaintenance(running)].sort()).toEqual(['m1', 'm2', 'm3']);
    expect(monitorsUnderMaintenance([]).size).toBe(0);
  });

  it('reads both shapes of one window', () => {
    expect([...maintenanceMonitorIds({ ...win('a', 'scheduled', 'x', 'y', ['m1']), monitorIds: ['m1', 'm4'] })].sort()).toEqual(['m1', 'm4']);
  });
});

import { describe, expect, it } from 'vitest';
import { parseInstant, startOfUtcDay, utcDayKey } from '../../../src/site/lib/time.ts';
import { lastZoneDays, zoneMonthKey } from '../../../src/site/lib/zone-days.ts';

describe('parseInstant', () => {
  it.each([
    ['2026-11-22T14:05:00Z', Date.UTC(2026, 10, 22, 14, 5)],
    ['2026-11-22T14:05:00.123Z', Date.UTC(2026, 10, 22, 14, 5, 0, 123)],
    ['2026-11-22T14:05:00.123456789Z', Date.UTC(2026, 10, 22, 14, 5, 0, 123)],
    ['2026-11-22T14:05Z', Date.UTC(2026, 10, 22, 14, 5)],
    ['2026-11-22T15:05:00+01:00', Date.UTC(2026, 10, 22, 14, 5)],
    ['2026-11-22T15:05:00+0100', Date.UTC(2026, 10, 22, 14, 5)],
    ['2026-11-22T09:05:00-05', Date.UTC(2026, 10, 22, 14, 5)],
    ['2026-11-22T14:05:00', Date.UTC(2026, 10, 22, 14, 5)], // zone-less reads as UTC
    ['2026-11-22 14:05:00', Date.UTC(2026, 10, 22, 14, 5)],
    ['2026-11-22', Date.UTC(2026, 10, 22)],
    ['  2026-11-22T14:05:00Z  ', Date.UTC(2026, 10, 22, 14, 5)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['0050-01-01T00:00:00Z', -60589296000000],
  ])('reads %j', (input, expected) => {
    expect(parseInstant(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['not a date', 'words'],
    ['Nov 22 2026', 'non-ISO (engine would read it as local time)'],
    ['2026-02-30T00:00:00Z', 'day that does not exist'],
    ['2025-02-29', 'not a leap year'],
    ['2026-13-01', 'month 13'],
    ['2026-11-22T24:00:00Z', 'hour 24'],
    ['2026-11-22T14:60:00Z', 'minute 60'],
    ['2026-11-22T14:05:00+25:00', 'offset out of range'],
    ['275760-09-14T00:00:00Z', 'six-digit year'],
  ])('rejects %j (%s)', (input) => {
    expect(parseInstant(input)).toBeNull();
  });

  it.each([
    [new Date('2026-11-22T00:00:00Z'), Date.UTC(2026, 10, 22)],
    [new Date(Number.NaN), null],
    [0, 0],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    [9e15, null],
    [null, null],
    [undefined, null],
    [{}, null],
  ])('reads non-string %s', (input, expected) => {
    expect(parseInstant(input)).toBe(expected);
  });
});

describe('UTC keys', () => {
  it.each([
    [Date.UTC(2026, 10, 22, 0, 0, 0, 0), '2026-11-22', '2026-11'],
    [Date.UTC(2026, 10, 22, 23, 59, 59, 999), '2026-11-22', '2026-11'],
    [Date.UTC(2026, 11, 31, 23, 59, 59, 999), '2026-12-31', '2026-12'],
    [Date.UTC(2027, 0, 1), '2027-01-01', '2027-01'],
  ])('%i is day %s, month %s', (ms, day, month) => {
    expect(utcDayKey(ms)).toBe(day);
    expect(zoneMonthKey(ms, 'UTC')).toBe(month);
    expect(utcDayKey(startOfUtcDay(ms))).toBe(day);
    expect(startOfUtcDay(ms) % 86_400_000).toBe(0);
  });

  it('lists exactly `days` day starts, oldest first, ending today', () => {
    const starts = lastZoneDays(90, new Date('2026-11-22T00:00:00.000Z'), 'UTC').map((day) => day.start);
    expect(starts).toHaveLength(90);
    expect(utcDayKey(starts[0] ?? 0)).toBe('2026-08-25');
    expect(utcDayKey(starts[89] ?? 0)).toBe('2026-11-22');
  });

  it.each([0, -1, 1.5, Number.NaN, 10_000])('rejects a day count of %s', (days) => {
    expect(() => lastZoneDays(days, new Date(), 'UTC')).toThrow(RangeError);
  });

  it('rejects an invalid now', () => {
    expect(() => lastZoneDays(3, new Date('nope'), 'UTC')).toThrow(RangeError);
  });
});

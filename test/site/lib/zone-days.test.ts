import { describe, expect, it } from 'vitest';
import { lastZoneDays, shiftDayKey, startOfZoneDay, zoneDayKey, zoneDayKeyer, zoneMonthKey } from '../../../src/site/lib/zone-days.ts';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const hoursOf = (key: string, zone: string) => (startOfZoneDay(shiftDayKey(key, 1), zone) - startOfZoneDay(key, zone)) / HOUR;

describe('calendar days of a zone', () => {
  it.each([
    // 23:30 local is still that day, though UTC is already on the next one (or the previous).
    ['2026-11-22T04:30:00Z', 'America/New_York', '2026-11-21'],
    ['2026-11-22T10:30:00Z', 'Pacific/Auckland', '2026-11-22'],
    ['2026-11-21T10:30:00Z', 'Pacific/Auckland', '2026-11-21'],
    ['2026-11-22T18:00:00Z', 'Asia/Kolkata', '2026-11-22'], // 23:30 +05:30
    ['2026-11-22T18:30:00Z', 'Asia/Kolkata', '2026-11-23'], // 00:00 +05:30
    ['2026-11-22T18:14:59Z', 'Asia/Kathmandu', '2026-11-22'], // 23:59:59 +05:45
    ['2026-11-22T18:15:00Z', 'Asia/Kathmandu', '2026-11-23'],
    ['2026-11-22T23:59:59Z', 'UTC', '2026-11-22'],
  ])('%s is %s day %s', (iso, zone, key) => {
    expect(zoneDayKey(at(iso), zone)).toBe(key);
  });

  it.each([
    ['2026-11-25', 'Asia/Kolkata', '2026-11-24T18:30:00.000Z'],
    ['2026-11-25', 'Asia/Kathmandu', '2026-11-24T18:15:00.000Z'],
    ['2026-11-25', 'America/New_York', '2026-11-25T05:00:00.000Z'],
    ['2026-07-01', 'America/New_York', '2026-07-01T04:00:00.000Z'],
    ['2026-11-25', 'Pacific/Auckland', '2026-11-24T11:00:00.000Z'],
    ['2026-11-25', 'UTC', '2026-11-25T00:00:00.000Z'],
    // Sao Paulo's clocks jumped from 00:00 to 01:00 on this day: it began at 01:00 local.
    ['2018-11-04', 'America/Sao_Paulo', '2018-11-04T03:00:00.000Z'],
    // Santiago's fell back from 00:00 to 23:00 the evening before: the day began at the later midnight.
    ['2026-04-05', 'America/Santiago', '2026-04-05T04:00:00.000Z'],
  ])('%s in %s starts at %s', (key, zone, iso) => {
    expect(new Date(startOfZoneDay(key, zone)).toISOString()).toBe(iso);
  });

  it.each([
    ['2026-03-08', 'America/New_York', 23],
    ['2026-11-01', 'America/New_York', 25],
    ['2026-09-27', 'Pacific/Auckland', 23],
    ['2026-04-05', 'Pacific/Auckland', 25],
    ['2026-03-29', 'Europe/Berlin', 23],
    ['2018-11-04', 'America/Sao_Paulo', 23],
    ['2026-11-25', 'Asia/Kathmandu', 24],
    ['2026-03-08', 'UTC', 24],
  ])('%s in %s lasts %i hours', (key, zone, hours) => {
    expect(hoursOf(key, zone)).toBe(hours);
  });

  it('keys months in the zone: 30 Nov 23:30 in New York is still November', () => {
    expect(zoneMonthKey(at('2026-12-01T04:30:00Z'), 'America/New_York')).toBe('2026-11');
    expect(zoneMonthKey(at('2026-12-01T04:30:00Z'), 'UTC')).toBe('2026-12');
    expect(zoneMonthKey(at('2026-11-30T11:30:00Z'), 'Pacific/Auckland')).toBe('2026-12');
  });

  it('steps day keys by the calendar, across months, years and leap days', () => {
    expect(shiftDayKey('2028-02-28', 1)).toBe('2028-02-29');
    expect(shiftDayKey('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftDayKey('2026-03-01', -89)).toBe('2025-12-02');
    expect(() => shiftDayKey('2026-13-01x', 1)).toThrow(RangeError);
  });

  it('the keyer agrees with zoneDayKey every 15 minutes across DST changes', () => {
    for (const zone of ['America/New_York', 'Pacific/Auckland', 'Asia/Kathmandu', 'Europe/Berlin', 'UTC']) {
      for (const from of [at('2026-03-06T00:00:00Z'), at('2026-04-03T00:00:00Z'), at('2026-09-25T00:00:00Z'), at('2026-10-30T00:00:00Z')]) {
        const keyOf = zoneDayKeyer(zone);
        for (let ms = from; ms < from + 4 * 24 * HOUR; ms += HOUR / 4) expect(keyOf(ms), `${zone} ${new Date(ms).toISOString()}`).toBe(zoneDayKey(ms, zone));
      }
    }
  });
});

describe('lastZoneDays', () => {
  it('lists `days` contiguous days of the zone, oldest first, the last one holding now', () => {
    const now = new Date('2026-11-02T03:30:00Z'); // 1 Nov, 22:30 in New York, the day clocks fell back
    const days = lastZoneDays(90, now, 'America/New_York');
    expect(days).toHaveLength(90);
    expect(days[89]).toEqual({ key: '2026-11-01', start: at('2026-11-01T04:00:00Z'), end: at('2026-11-02T05:00:00Z') });
    expect(days[0]!.key).toBe('2026-08-04');
    for (let index = 1; index < days.length; index += 1) {
      expect(days[index]!.start).toBe(days[index - 1]!.end);
      expect(days[index]!.key).toBe(shiftDayKey(days[index - 1]!.key, 1));
    }
  });

  it('moves on at local midnight, not at UTC midnight', () => {
    const before = lastZoneDays(3, new Date('2026-11-22T10:59:59Z'), 'Pacific/Auckland');
    const after = lastZoneDays(3, new Date('2026-11-22T11:00:00Z'), 'Pacific/Auckland');
    expect(before.map((day) => day.key)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(after.map((day) => day.key)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
    expect(lastZoneDays(1, new Date('2026-11-22T18:29:59Z'), 'Asia/Kolkata')[0]!.key).toBe('2026-11-22');
    expect(lastZoneDays(1, new Date('2026-11-22T18:30:00Z'), 'Asia/Kolkata')[0]!.key).toBe('2026-11-23');
  });

  it('rejects a bad day count or now, in any zone', () => {
    expect(() => lastZoneDays(0, new Date(), 'Asia/Kolkata')).toThrow(RangeError);
    expect(() => lastZoneDays(3, new Date('nope'), 'Asia/Kolkata')).toThrow(RangeError);
  });
});

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatMonth,
  formatRelative,
  isoString,
  UNKNOWN_DATE,
  UNKNOWN_DURATION,
  UNKNOWN_MONTH,
  UNKNOWN_TIME,
} from '../../../src/site/lib/format-date.ts';

const NOW = new Date('2026-11-22T14:05:30.000Z');

describe('isoString', () => {
  it.each([
    ['2026-11-22T15:05:00+01:00', '2026-11-22T14:05:00.000Z'],
    [new Date('2026-11-22T14:05:00Z'), '2026-11-22T14:05:00.000Z'],
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['garbage', null],
    [new Date(Number.NaN), null],
    [undefined, null],
  ])('%s -> %s', (input, expected) => {
    expect(isoString(input)).toBe(expected);
  });
});

describe('formatDate and formatDateTime', () => {
  it.each([
    ['2026-11-22T14:05:00Z', '22 Nov 2026', '22 Nov 2026, 14:05 UTC'],
    ['2026-11-22T00:00:00Z', '22 Nov 2026', '22 Nov 2026, 00:00 UTC'],
    ['2026-11-22T23:59:59.999Z', '22 Nov 2026', '22 Nov 2026, 23:59 UTC'],
    ['2026-11-23T00:30:00+01:00', '22 Nov 2026', '22 Nov 2026, 23:30 UTC'],
    ['2027-01-01T00:00:00Z', '1 Jan 2027', '1 Jan 2027, 00:00 UTC'],
    ['2026-03-29T01:30:00Z', '29 Mar 2026', '29 Mar 2026, 01:30 UTC'], // a DST change in Europe
    ['2026-09-05T07:08:00Z', '5 Sept 2026', '5 Sept 2026, 07:08 UTC'], // CLDR's en-GB abbreviation, as Intl writes it,
  ])('%s', (input, date, dateTime) => {
    expect(formatDate(input)).toBe(date);
    expect(formatDateTime(input)).toBe(dateTime);
  });

  it.each(['', 'yesterday', '2026-02-30T00:00:00Z', null, 42n])('falls back for %s', (input) => {
    expect(formatDate(input)).toBe(UNKNOWN_DATE);
    expect(formatDateTime(input)).toBe(UNKNOWN_TIME);
  });
});

describe('formatMonth', () => {
  it.each([
    ['2026-11', 'November 2026'],
    ['2027-01', 'January 2027'],
    ['2026-12', 'December 2026'],
    ['2026-13', UNKNOWN_MONTH],
    ['2026-00', UNKNOWN_MONTH],
    ['2026-1', UNKNOWN_MONTH],
    ['2026-11-01', UNKNOWN_MONTH],
    [undefined, UNKNOWN_MONTH],
  ])('%s -> %s', (input, expected) => {
    expect(formatMonth(input)).toBe(expected);
  });
});

describe('formatRelative', () => {
  const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;
  it.each([
    [0, 'now'],
    [-59_000, 'now'],
    [30_000, 'now'],
    [-MIN, '1 minute ago'],
    [-5 * MIN - 59_000, '5 minutes ago'], // floored, never overstated
    [-59 * MIN, '59 minutes ago'],
    [-HOUR, '1 hour ago'],
    [2 * HOUR + 1, 'in 2 hours'],
    [-23 * HOUR - 59 * MIN, '23 hours ago'],
    [-DAY, '1 day ago'],
    [3 * DAY, 'in 3 days'],
    [-29 * DAY, '29 days ago'],
    [-45 * DAY, '1 month ago'],
    [-364 * DAY, '12 months ago'],
    [-365 * DAY, '1 year ago'],
    [-800 * DAY, '2 years ago'],
  ])('%i ms from now -> %s', (offset, expected) => {
    expect(formatRelative(at(offset), NOW)).toBe(expected);
  });

  it('falls back for invalid input or now', () => {
    expect(formatRelative('nope', NOW)).toBe(UNKNOWN_TIME);
    expect(formatRelative(at(0), new Date(Number.NaN))).toBe(UNKNOWN_TIME);
  });
});

describe('formatDuration', () => {
  it.each([
    ['2026-11-22T12:00:00Z', '2026-11-22T14:15:00Z', '2 h 15 min'],
    ['2026-11-22T12:00:00Z', '2026-11-22T14:00:59Z', '2 h'],
    ['2026-11-22T12:00:00Z', '2026-11-22T12:45:30Z', '45 min'],
    ['2026-11-22T12:00:00Z', '2026-11-22T12:00:59Z', '< 1 min'],
    ['2026-11-22T12:00:00Z', '2026-11-22T12:00:00Z', '< 1 min'],
    ['2026-11-19T10:00:00Z', '2026-11-22T14:30:00Z', '3 d 4 h'],
    ['2026-11-20T12:00:00Z', '2026-11-22T12:10:00Z', '2 d'],
    ['2026-11-22T12:00:30Z', '2026-11-22T12:00:00Z', '< 1 min'], // small clock skew
    ['2026-11-22T13:00:00Z', '2026-11-22T12:00:00Z', UNKNOWN_DURATION], // end before start
    ['nope', '2026-11-22T12:00:00Z', UNKNOWN_DURATION],
    ['2026-11-22T12:00:00Z', 'nope', UNKNOWN_DURATION],
  ])('%s to %s -> %s', (start, end, expected) => {
    expect(formatDuration(start, end, NOW)).toBe(expected);
  });

  it('runs an open interval until now', () => {
    expect(formatDuration('2026-11-22T11:50:00Z', null, NOW)).toBe('2 h 15 min');
    expect(formatDuration('2026-11-22T11:50:00Z', undefined, NOW)).toBe('2 h 15 min');
  });
});

describe('independence from the process time zone', () => {
  const cases = [
    ['2026-03-29T00:30:00Z', '2026-03-29T03:30:00Z'],
    ['2026-10-25T00:30:00Z', '2026-10-26T02:45:00Z'],
    ['2026-11-22T23:59:00Z', '2026-11-23T00:01:00Z'],
    ['2026-04-05T15:45:00Z', '2026-04-04T15:00:00'],
  ] as const;

  // `now` is built through isoString: `new Date('...zone-less...')` would itself read local time.
  const render = () =>
    cases.map(([a, b]) => [formatDateTime(a), formatDate(b), formatRelative(a, new Date(isoString(b) ?? '')), formatDuration(a, b, NOW), isoString(b)]);

  it.each(['America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Kiritimati'])(
    'gives the same output under TZ=%s',
    (zone) => {
      const moduleUrl = new URL('../../../src/site/lib/format-date.ts', import.meta.url).href;
      const script = `
        const m = await import(${JSON.stringify(moduleUrl)});
        const NOW = new Date(${JSON.stringify(NOW.toISOString())});
        const cases = ${JSON.stringify(cases)};
        const out = cases.map(([a, b]) => [m.formatDateTime(a), m.formatDate(b), m.formatRelative(a, new Date(m.isoString(b))), m.formatDuration(a, b, NOW), m.isoString(b)]);
        process.stdout.write(JSON.stringify({ offset: new Date('2026-07-01T00:00:00Z').getTimezoneOffset(), out }));
      `;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, TZ: zone },
        cwd: fileURLToPath(new URL('../../../', import.meta.url)),
        encoding: 'utf8',
      });
      expect(child.stderr).not.toMatch(/Error/);
      const result = JSON.parse(child.stdout) as { offset: number; out: unknown };
      expect(result.offset).not.toBe(0); // the child really ran in another zone
      expect(result.out).toEqual(render());
    },
  );
});

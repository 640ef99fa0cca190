import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/cli-error.ts';
import { parseDuration, parseDurationMs, parseTime, utc } from '../../src/cli/parse-time.ts';

const now = new Date('2026-11-25T10:15:30Z');
const at = (text: string) => utc(parseTime(text, '--start', now));

describe('parseTime', () => {
  it('reads ISO 8601 with a zone, and without one as UTC', () => {
    expect(at('2026-12-01T22:00Z')).toBe('2026-12-01T22:00:00Z');
    expect(at('2026-12-01T22:00:00+01:00')).toBe('2026-12-01T21:00:00Z');
    expect(at('2026-12-01 22:00')).toBe('2026-12-01T22:00:00Z');
    expect(at('2026-12-01')).toBe('2026-12-01T00:00:00Z');
  });

  it('reads relative forms from now', () => {
    expect(at('now')).toBe('2026-11-25T10:15:30Z');
    expect(at('+30m')).toBe('2026-11-25T10:45:30Z');
    expect(at('in 2h')).toBe('2026-11-25T12:15:30Z');
    expect(at('in 1h30m')).toBe('2026-11-25T11:45:30Z');
    expect(at('+1d')).toBe('2026-11-26T10:15:30Z');
    expect(at('in 90 minutes')).toBe('2026-11-25T11:45:30Z');
  });

  it('reads today and tomorrow with a UTC time', () => {
    expect(at('tomorrow 02:00 UTC')).toBe('2026-11-26T02:00:00Z');
    expect(at('today 14:30')).toBe('2026-11-25T14:30:00Z');
    expect(at('tomorrow')).toBe('2026-11-26T00:00:00Z');
  });

  it('refuses what it cannot read, naming the flag', () => {
    for (const bad of ['yesterday', 'soon', '2026-02-30', '2026-11-25T25:00Z', 'tomorrow 24:00', '+', 'in 2 fortnights', '']) {
      expect(() => parseTime(bad, '--start', now), bad).toThrow(UsageError);
    }
    expect(() => parseTime('soon', '--end', now)).toThrow(/^--end: cannot read "soon"/);
  });
});

describe('durations', () => {
  it('reads compact and spelled-out lengths', () => {
    expect(parseDurationMs('2h')).toBe(7_200_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('45 minutes')).toBe(2_700_000);
    expect(parseDurationMs('1d')).toBe(86_400_000);
    expect(parseDurationMs('0m')).toBeNull();
    expect(parseDurationMs('2 x')).toBeNull();
    expect(() => parseDuration('forever', '--duration')).toThrow(/--duration: cannot read "forever"/);
  });
});

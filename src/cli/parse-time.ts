/**
 * Times as a person on call types them, always turned into one absolute UTC instant:
 * - ISO 8601: `2026-11-25T14:00Z`, `2026-11-25T14:00:00+01:00`, `2026-11-25 14:00` (no zone: UTC);
 * - relative to now: `now`, `+30m`, `+2h`, `+1d`, `in 2h`, `in 90 minutes`, `in 1h30m`;
 * - a day and a time in UTC: `today 14:30`, `tomorrow 02:00 UTC`, `tomorrow` (00:00 UTC).
 * Durations (`--duration`): `2h`, `90m`, `1h30m`, `1d`, `45 minutes`.
 */
import { UsageError } from './cli-error.ts';

const UNIT_MS_DAY = 86_400_000;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: UNIT_MS_DAY };

function unitOf(word: string): string | null {
  if (/^(s|sec|secs|second|seconds)$/.test(word)) return 's';
  if (/^(m|min|mins|minute|minutes)$/.test(word)) return 'm';
  if (/^(h|hr|hrs|hour|hours)$/.test(word)) return 'h';
  if (/^(d|day|days)$/.test(word)) return 'd';
  return null;
}

/** Milliseconds of `2h`, `1h30m`, `90 minutes`; null when the text is not a duration. */
export function parseDurationMs(text: string): number | null {
  const compact = text.trim().toLowerCase();
  if (!/^(?:\d+\s*[a-z]+\s*)+$/.test(compact)) return null;
  const parts = [...compact.matchAll(/(\d+)\s*([a-z]+)/g)];
  let total = 0;
  for (const [, amount, word] of parts) {
    const unit = unitOf(word ?? '');
    if (!unit || amount === undefined) return null;
    total += Number(amount) * (UNIT_MS[unit] ?? 0);
  }
  return total > 0 ? total : null;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(z|utc|[+-]\d{2}:?\d{2})?$/i;

function fromIso(text: string): Date | null {
  const match = ISO.exec(text);
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', zone] = match;
  const offset = !zone || /^(z|utc)$/i.test(zone) ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  // Rejects 2026-02-30 and 25:00, which Date would silently roll over or refuse.
  if (Number.isNaN(date.getTime())) return null;
  if (offset === 'Z' && (date.getUTCDate() !== Number(day) || date.getUTCHours() !== Number(hour))) return null;
  return date;
}

function fromDayWord(text: string, now: Date): Date | null {
  const match = /^(today|tomorrow)(?:\s+(?:at\s+)?(\d{1,2}):(\d{2}))?(?:\s+utc)?$/i.exec(text);
  if (!match) return null;
  const [, word, hour = '0', minute = '0'] = match;
  if (Number(hour) > 23 || Number(minute) > 59) return null;
  const base = word?.toLowerCase() === 'tomorrow' ? new Date(now.getTime() + UNIT_MS_DAY) : now;
  return new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate(), Number(hour), Number(minute)));
}

function fromRelative(text: string, now: Date): Date | null {
  if (/^now$/i.test(text)) return now;
  const match = /^(?:\+|in\s+)(.+)$/i.exec(text);
  if (!match?.[1]) return null;
  const ms = parseDurationMs(match[1]);
  return ms === null ? null : new Date(now.getTime() + ms);
}

/** `flag` names the option in the error, e.g. `--start`. */
export function parseTime(text: string, flag: string, now: Date): Date {
  const trimmed = text.trim();
  const date = fromRelative(trimmed, now) ?? fromDayWord(trimmed, now) ?? fromIso(trimmed);
  if (!date) {
    throw new UsageError(`${flag}: cannot read "${text}" as a time; use ISO 8601 (2026-11-25T14:00Z), +30m, in 2h, or tomorrow 02:00 UTC`);
  }
  return date;
}

export function parseDuration(text: string, flag: string): number {
  const ms = parseDurationMs(text);
  if (ms === null) throw new UsageError(`${flag}: cannot read "${text}" as a duration; use e.g. 2h, 90m or 1h30m`);
  return ms;
}

/** The one way the CLI writes an instant: ISO 8601 in UTC, to the second. */
export function utc(date: Date | string | null | undefined): string {
  if (date === null || date === undefined) return '';
  const value = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(value.getTime())) return typeof date === 'string' ? date : '';
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Maps each status vocabulary of the view models onto the six status colour families of the
 * themes (`--pl-status-<tone>`). Components write the tone as `data-tone`, and the stylesheet
 * turns it into colours, so no component ever names a colour.
 */
import type { DayLevel, MonitorHealth, Severity, StatusLevel } from '../view/types.ts';

export type StatusTone = 'operational' | 'degraded' | 'partial-outage' | 'major-outage' | 'maintenance' | 'unknown';
/** `neutral` is for words that carry no status (e.g. "Investigating"): plain text colours. */
export type Tone = StatusTone | 'neutral';

export const levelTone: Readonly<Record<StatusLevel, StatusTone>> = {
  operational: 'operational',
  degraded: 'degraded',
  partial_outage: 'partial-outage',
  major_outage: 'major-outage',
  maintenance: 'maintenance',
};

export const healthTone: Readonly<Record<MonitorHealth, StatusTone>> = {
  up: 'operational',
  degraded: 'degraded',
  down: 'major-outage',
  maintenance: 'maintenance',
  paused: 'unknown',
  pending: 'unknown',
  unknown: 'unknown',
};

export const severityTone: Readonly<Record<Severity, StatusTone>> = {
  minor: 'degraded',
  major: 'partial-outage',
  critical: 'major-outage',
  unknown: 'unknown',
};

/** A day worth listing under "days with issues". */
export function isIssueDay(level: DayLevel, incidents: number): boolean {
  return level === 'minor' || level === 'major' || level === 'down' || incidents > 0;
}

/** A day's `data-level`: up days (most of them) carry none, up is the stylesheet's default. */
export function dayLevelAttribute(level: DayLevel): DayLevel | undefined {
  return level === 'up' ? undefined : level;
}

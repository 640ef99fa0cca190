import type { CheckStatus, MonitorType, Region } from '../../contract/monitor.ts';
import { SeededRandom } from './random.ts';

export const HISTORY_DAYS = 90;
export const CHECKS_PER_HOUR = 1;
export const HOUR_MS = 3_600_000;

/** A stretch of trouble, counted in whole hours back from the newest check (0 = the newest). */
export interface DemoEvent {
  kind: 'down' | 'slow';
  /** Hours ago at which the event began (inclusive). */
  startHoursAgo: number;
  durationHours: number;
}

export interface HistoryProfile {
  type: MonitorType;
  regions: readonly Region[];
  timeoutSeconds: number;
  /** Typical latency in ms from the first region. */
  baseLatencyMs: number;
  events: readonly DemoEvent[];
  seed: number;
}

export interface DemoCheck {
  status: CheckStatus;
  latency: number;
  statusCode: number | null;
  region: Region;
  error: string | null;
  checkedAt: string;
}

/** Extra round-trip per region, as if probes sat in different continents. */
const REGION_OFFSET_MS: Record<Region, number> = { eu: 0, us: 35, asia: 110 };

function eventAt(events: readonly DemoEvent[], hoursAgo: number): DemoEvent | undefined {
  return events.find((event) => hoursAgo <= event.startHoursAgo && hoursAgo > event.startHoursAgo - event.durationHours);
}

function failure(type: MonitorType, timeoutSeconds: number, random: SeededRandom, baseLatency: number) {
  if (type === 'http') {
    return random.next() < 0.7
      ? { latency: Math.round(baseLatency * 1.5), statusCode: 503, error: 'expected status code eq 200, got 503' }
      : { latency: timeoutSeconds * 1000, statusCode: null, error: `timed out after ${timeoutSeconds} s` };
  }
  if (type === 'tcp') return { latency: timeoutSeconds * 1000, statusCode: null, error: `connection timed out after ${timeoutSeconds} s` };
  return { latency: timeoutSeconds * 1000, statusCode: null, error: `no reply within ${timeoutSeconds} s` };
}

/**
 * One check per hour for HISTORY_DAYS days, oldest first, ending at the hour `newest`.
 * Latency follows a daily curve with noise; events add outages and slow spells; a handful
 * of isolated failures (never the newest check) make uptime realistic.
 */
export function generateHistory(profile: HistoryProfile, newest: Date): DemoCheck[] {
  const random = new SeededRandom(profile.seed);
  const total = HISTORY_DAYS * 24 * CHECKS_PER_HOUR;
  const checks: DemoCheck[] = [];
  for (let hoursAgo = total - 1; hoursAgo >= 0; hoursAgo--) {
    const at = new Date(newest.getTime() - hoursAgo * HOUR_MS);
    const region = profile.regions[hoursAgo % profile.regions.length] ?? 'eu';
    const daily = 1 + 0.18 * Math.sin(((at.getUTCHours() - 9) / 24) * 2 * Math.PI);
    const noise = Math.exp(0.18 * random.gaussian());
    const event = eventAt(profile.events, hoursAgo);
    const slow = event?.kind === 'slow' ? 3.5 + random.next() * 2 : 1;
    const base = (profile.baseLatencyMs + REGION_OFFSET_MS[region] * (profile.type === 'http' ? 1 : 0.5)) * daily * noise * slow;
    const sporadic = hoursAgo > 0 && random.next() < 0.0015;
    if (event?.kind === 'down' || sporadic) {
      const failed = failure(profile.type, profile.timeoutSeconds, random, base);
      checks.push({ status: 'down', region, checkedAt: at.toISOString(), ...failed });
    } else {
      checks.push({
        status: 'up',
        latency: Math.max(1, Math.round(base)),
        statusCode: profile.type === 'http' ? 200 : null,
        region,
        error: null,
        checkedAt: at.toISOString(),
      });
    }
  }
  return checks;
}

import type { CheckStatus } from '../../contract/monitor.ts';
import type { MonitorHealth } from '../store/monitors.ts';

export const DEFAULT_FAILURE_THRESHOLD = 2;

export interface HealthState {
  health: MonitorHealth;
  consecutiveFailures: number;
}

export interface HealthStep extends HealthState {
  /** Set when the monitor crossed into down or back out of it. */
  transition: 'down' | 'recovered' | null;
}

/**
 * Debounces health: a monitor goes down after `threshold` failed checks in a row (counted across its
 * regions in the order they finish) and recovers on the first passing check, so one blip pages nobody.
 * Until the threshold is reached the previous health (pending, up, degraded) stays.
 */
export function nextHealth(previous: HealthState, status: CheckStatus, threshold: number): HealthStep {
  if (status === 'up') {
    return { health: 'up', consecutiveFailures: 0, transition: previous.health === 'down' ? 'recovered' : null };
  }
  const consecutiveFailures = previous.consecutiveFailures + 1;
  if (previous.health === 'down') return { health: 'down', consecutiveFailures, transition: null };
  if (consecutiveFailures >= threshold) return { health: 'down', consecutiveFailures, transition: 'down' };
  return { health: previous.health, consecutiveFailures, transition: null };
}

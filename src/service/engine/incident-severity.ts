import type { IncidentSeverity } from '../../contract/incident.ts';
import type { DownCount } from '../store/health-counts.ts';

/**
 * Severity of an automatic incident from the share of monitors down: on the status pages that link the
 * monitor (the worst page counts), or across the organization when no page links it.
 * Half or more down: critical; a quarter or more: major; less: minor.
 */
export function severityFor(counts: readonly DownCount[]): IncidentSeverity {
  const worst = Math.max(0, ...counts.map(({ down, total }) => (total > 0 ? down / total : 0)));
  if (worst >= 0.5) return 'critical';
  if (worst >= 0.25) return 'major';
  return 'minor';
}

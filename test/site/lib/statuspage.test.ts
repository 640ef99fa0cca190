import { describe, expect, it } from 'vitest';
import { MONITOR_STATUSES } from '../../../src/contract/index.ts';
import type { MaintenancePhase } from '../../../src/site/lib/maintenance.ts';
import { computeOverallStatus, type MonitorHealth, type OverallLevel } from '../../../src/site/lib/overall-status.ts';
import { componentStatus, incidentImpact, incidentStatus, maintenanceStatus, statusIndicator } from '../../../src/site/lib/statuspage.ts';

describe('componentStatus', () => {
  it.each<[MonitorHealth, string]>([
    ['up', 'operational'],
    ['degraded', 'degraded_performance'],
    ['down', 'major_outage'],
    ['maintenance', 'under_maintenance'],
    ['unknown', 'degraded_performance'],
    ['paused', 'operational'],
    ['pending', 'operational'],
  ])('%s -> %s', (health, expected) => {
    expect(componentStatus(health)).toBe(expected);
  });

  // A page of one monitor: its component and the page's indicator must tell the same story.
  it.each([...MONITOR_STATUSES, 'unknown' as const])('agrees with the overall rule for a page whose one monitor is %s', (health) => {
    const level = computeOverallStatus({ monitors: [{ status: health }], activeIncidents: [], runningMaintenance: [] }).level;
    const expected: Record<string, OverallLevel> = {
      operational: 'operational',
      degraded_performance: 'degraded',
      major_outage: 'major_outage',
      under_maintenance: 'maintenance',
    };
    expect(level).toBe(expected[componentStatus(health)]);
  });
});

describe('statusIndicator', () => {
  it.each<[OverallLevel, string]>([
    ['operational', 'none'],
    ['degraded', 'minor'],
    ['partial_outage', 'major'],
    ['major_outage', 'critical'],
    ['maintenance', 'maintenance'],
  ])('%s -> %s', (level, expected) => {
    expect(statusIndicator(level)).toBe(expected);
  });
});

describe('incidentImpact and incidentStatus', () => {
  it('keep the contract values and normalize others like the HTML page', () => {
    expect(['minor', 'major', 'critical'].map(incidentImpact)).toEqual(['minor', 'major', 'critical']);
    // Unknown severities count as major, never as less serious than they may be.
    expect(incidentImpact('catastrophic')).toBe('major');
    expect(incidentImpact(' Critical ')).toBe('critical');
    expect(['investigating', 'identified', 'monitoring', 'resolved'].map(incidentStatus)).toEqual(['investigating', 'identified', 'monitoring', 'resolved']);
    // Unknown statuses keep the incident active rather than silently resolving it.
    expect(incidentStatus('postmortem')).toBe('investigating');
    expect(incidentStatus('RESOLVED')).toBe('resolved');
  });
});

describe('maintenanceStatus', () => {
  it.each<[MaintenancePhase, string | null]>([
    ['upcoming', 'scheduled'],
    ['running', 'in_progress'],
    ['completed', 'completed'],
    ['cancelled', null],
    ['lapsed', null],
    ['unknown', null],
  ])('%s -> %s', (phase, expected) => {
    expect(maintenanceStatus(phase)).toBe(expected);
  });
});

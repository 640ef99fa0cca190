import { describe, expect, it } from 'vitest';
import {
  computeOverallStatus,
  monitorHealth,
  monitorStatusLabel,
  normalizeMonitorStatus,
  type MonitorHealth,
  type OverallLevel,
} from '../../../src/site/lib/overall-status.ts';

describe('normalizeMonitorStatus', () => {
  it.each([
    ['up', 'up'],
    ['down', 'down'],
    ['degraded', 'degraded'],
    ['maintenance', 'maintenance'],
    ['paused', 'paused'],
    ['pending', 'pending'],
    [' UP ', 'up'],
    ['Down', 'down'],
    ['operational', 'unknown'],
    ['', 'unknown'],
    ['constructor', 'unknown'],
    ['__proto__', 'unknown'],
    [null, 'unknown'],
    [undefined, 'unknown'],
    [1, 'unknown'],
    [{ toString: () => 'up' }, 'unknown'],
  ])('%j -> %s', (input, expected) => {
    expect(normalizeMonitorStatus(input)).toBe(expected);
  });
});

describe('monitorStatusLabel', () => {
  it.each<[MonitorHealth, string]>([
    ['up', 'Operational'],
    ['down', 'Down'],
    ['degraded', 'Degraded performance'],
    ['maintenance', 'Under maintenance'],
    ['paused', 'Paused'],
    ['pending', 'Awaiting first check'],
    ['unknown', 'Status unknown'],
  ])('%s -> %s', (status, label) => {
    expect(monitorStatusLabel(status)).toBe(label);
  });
});

describe('monitorHealth', () => {
  it.each<[Parameters<typeof monitorHealth>[0], boolean, MonitorHealth]>([
    [{ currentStatus: 'up' }, false, 'up'],
    [{ currentStatus: 'down' }, true, 'maintenance'],
    [{ currentStatus: 'down', active: false }, false, 'paused'],
    [{ currentStatus: 'up', active: false }, true, 'maintenance'],
    [{ currentStatus: null, lastStatus: 'down' }, false, 'down'],
    [{ lastStatus: 'up' }, false, 'up'],
    [{ currentStatus: 'weird', lastStatus: 'up' }, false, 'unknown'],
    [{}, false, 'unknown'],
    [{ active: true }, false, 'unknown'],
  ])('%j, maintenance %s -> %s', (monitor, inMaintenance, expected) => {
    expect(monitorHealth(monitor, inMaintenance)).toBe(expected);
  });
});

describe('computeOverallStatus', () => {
  const m = (...statuses: unknown[]) => statuses.map((status) => ({ status }));
  const i = (...severities: unknown[]) => severities.map((severity) => ({ severity }));
  const running = [{ id: 'w1' }];

  it.each<[string, Parameters<typeof computeOverallStatus>[0], OverallLevel, string]>([
    ['no monitors, nothing going on', { monitors: [], activeIncidents: [], runningMaintenance: [] }, 'operational', 'All systems operational'],
    ['all up', { monitors: m('up', 'up'), activeIncidents: [], runningMaintenance: [] }, 'operational', 'All systems operational'],
    ['paused and pending are left out', { monitors: m('up', 'paused', 'pending'), activeIncidents: [], runningMaintenance: [] }, 'operational', 'All systems operational'],
    ['one of two down', { monitors: m('up', 'down'), activeIncidents: [], runningMaintenance: [] }, 'partial_outage', 'Partial outage'],
    ['the only monitor down', { monitors: m('down'), activeIncidents: [], runningMaintenance: [] }, 'major_outage', 'Major outage'],
    ['all down', { monitors: m('down', 'DOWN', 'paused'), activeIncidents: [], runningMaintenance: [] }, 'major_outage', 'Major outage'],
    ['down plus unknown is not claimed as major', { monitors: m('down', 'bogus'), activeIncidents: [], runningMaintenance: [] }, 'partial_outage', 'Partial outage'],
    ['down with the rest in maintenance', { monitors: m('down', 'maintenance'), activeIncidents: [], runningMaintenance: running }, 'major_outage', 'Major outage'],
    ['critical incident while all up', { monitors: m('up'), activeIncidents: i('critical'), runningMaintenance: [] }, 'major_outage', 'Major outage'],
    ['major incident while all up', { monitors: m('up'), activeIncidents: i('major'), runningMaintenance: [] }, 'partial_outage', 'Partial outage'],
    ['unknown severity counts as major', { monitors: m('up'), activeIncidents: i('sev1'), runningMaintenance: [] }, 'partial_outage', 'Partial outage'],
    ['minor incident while all up', { monitors: m('up'), activeIncidents: i('minor'), runningMaintenance: [] }, 'degraded', 'Degraded performance'],
    ['degraded monitor', { monitors: m('up', 'degraded'), activeIncidents: [], runningMaintenance: [] }, 'degraded', 'Degraded performance'],
    ['minor incident and a down monitor: worst wins', { monitors: m('up', 'down'), activeIncidents: i('minor'), runningMaintenance: [] }, 'partial_outage', 'Partial outage'],
    ['unknown status never reads operational', { monitors: m('up', 'exploded'), activeIncidents: [], runningMaintenance: [] }, 'degraded', 'Some systems have an unknown status'],
    ['null status is unknown', { monitors: m('up', null), activeIncidents: [], runningMaintenance: [] }, 'degraded', 'Some systems have an unknown status'],
    ['degraded label wins over unknown', { monitors: m('degraded', undefined), activeIncidents: [], runningMaintenance: [] }, 'degraded', 'Degraded performance'],
    ['maintenance running, rest up', { monitors: m('up', 'maintenance'), activeIncidents: [], runningMaintenance: running }, 'maintenance', 'Under maintenance'],
    ['maintenance status without a window list', { monitors: m('maintenance'), activeIncidents: [], runningMaintenance: [] }, 'maintenance', 'Under maintenance'],
    ['maintenance never hides a minor incident', { monitors: m('maintenance', 'up'), activeIncidents: i('minor'), runningMaintenance: running }, 'degraded', 'Degraded performance'],
    ['maintenance never hides an unknown monitor', { monitors: m('maintenance', 'huh'), activeIncidents: [], runningMaintenance: running }, 'degraded', 'Some systems have an unknown status'],
    ['maintenance never hides a down monitor', { monitors: m('maintenance', 'up', 'down'), activeIncidents: [], runningMaintenance: running }, 'partial_outage', 'Partial outage'],
  ])('%s', (_name, input, level, label) => {
    expect(computeOverallStatus(input)).toMatchObject({ level, label });
  });
});

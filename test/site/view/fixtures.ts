import type { Incident, MaintenanceWindow, Monitor, StatusPage } from '../../../src/contract/index.ts';
import type { Snapshot } from '../../../src/site/data/snapshot.ts';
import { emptyHistory, type MonitorHistory } from '../../../src/site/data/uptime-history.ts';

export const now = new Date('2026-11-22T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();

export function monitor(id: string, currentStatus: string, extra: Partial<Monitor> = {}): Monitor {
  return { id, name: `Monitor ${id}`, type: 'http', active: true, currentStatus, lastLatency: 120, ...extra };
}

export function page(extra: Partial<StatusPage> = {}): StatusPage {
  return {
    id: 'p1',
    name: 'Acme Status',
    slug: 'acme',
    isPublic: true,
    customDomain: 'status.acme.test',
    brandColor: '#1a7f37',
    logoUrl: 'https://acme.example/logo.svg',
    headerText: '<strong>Hello</strong><script>alert(1)</script>',
    footerText: 'Footer <a href="javascript:alert(1)">x</a>',
    customCss: 'body { color: red } </style><script>alert(1)</script>',
    showResponseTimes: true,
    monitors: [
      { id: 'l2', monitorId: 'm2', displayName: 'Database', sortOrder: 2 },
      { id: 'l1', monitorId: 'm1', displayName: 'Website', sortOrder: 1 },
    ],
    ...extra,
  };
}

export function incident(id: string, extra: Partial<Incident> = {}): Incident {
  return {
    id,
    title: `Incident ${id}`,
    status: 'identified',
    severity: 'major',
    startedAt: hoursAgo(2),
    resolvedAt: null,
    updates: [
      { id: `${id}-u1`, status: 'investigating', message: 'Looking', createdAt: hoursAgo(2) },
      { id: `${id}-u2`, status: 'identified', message: 'Found it', createdAt: hoursAgo(1) },
    ],
    monitors: [{ monitor: { id: 'm2', name: 'db-primary' } }, { monitor: { id: 'secret', name: 'Secret service' } }],
    ...extra,
  };
}

export function window(id: string, extra: Partial<MaintenanceWindow> = {}): MaintenanceWindow {
  return {
    id,
    title: `Window ${id}`,
    description: 'Upgrading',
    status: 'scheduled',
    scheduledStart: hoursAgo(-48),
    scheduledEnd: hoursAgo(-50),
    monitors: [{ monitor: { id: 'm1', name: 'web' } }],
    ...extra,
  };
}

export function historyWithDays(days: Record<string, { checks: number; up: number }>): MonitorHistory {
  return {
    ...emptyHistory(),
    days,
    recent: [
      { checkedAt: hoursAgo(1), latency: 100 },
      { checkedAt: hoursAgo(2), latency: 140 },
      { checkedAt: hoursAgo(3), latency: 120 },
    ],
  };
}

export function snapshot(extra: Partial<Snapshot> = {}): Snapshot {
  return {
    organization: { id: 'o1', name: 'Acme Cloud', slug: 'acme', logo: null },
    pages: [page(), page({ id: 'p2', name: 'Internal', slug: 'internal', isPublic: false, customDomain: 'internal.acme.test' })],
    monitors: [monitor('m1', 'up'), monitor('m2', 'down')],
    incidents: [incident('i1')],
    maintenance: [],
    histories: new Map([['m1', historyWithDays({ '2026-11-21': { checks: 24, up: 24 }, '2026-11-22': { checks: 12, up: 11 } })]]),
    fetchedAt: new Date(now.getTime() - 10_000),
    ...extra,
  };
}

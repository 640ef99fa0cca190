import type { CreateChannelInput } from '../../contract/notification.ts';
import type { CreateMonitorInput } from '../../contract/monitor.ts';
import type { IncidentSeverity, IncidentStatus } from '../../contract/incident.ts';
import type { DemoEvent } from './history.ts';
import type { DemoTargetRole } from '../store/demo-targets.ts';
import type { MonitorHealth } from '../store/monitors.ts';

export const DEMO_ORGANIZATION = { name: 'Acme Cloud', plan: 'pro' } as const;

/** Seeded logo address; once the site listens it is replaced by the logo the site serves (public/demo/). */
export const DEMO_PLACEHOLDER_LOGO = 'https://acme.example/logo.svg';
export const DEMO_LOGO_PATH = '/demo/acme-logo.svg';

const DAY = 24;

export interface DemoMonitor {
  /** Local handle used by pages, incidents and windows below. */
  key: string;
  input: CreateMonitorInput;
  baseLatencyMs: number;
  events: DemoEvent[];
  /** Stored health after seeding; `up` unless stated. */
  health?: MonitorHealth;
  /**
   * Checked for real against an endpoint of this machine (set on every start, see local-targets.ts).
   * Every other demo monitor is simulated: it keeps its seeded history and is never checked.
   */
  localTarget?: DemoTargetRole;
}

export const DEMO_MONITORS: DemoMonitor[] = [
  {
    key: 'website',
    input: {
      name: 'Website',
      type: 'http',
      url: 'https://acme.example/',
      regions: ['eu', 'us'],
      rules: [
        { type: 'status_code', operator: 'eq', value: 200 },
        { type: 'response_time', operator: 'lt', value: 2000 },
      ],
    },
    baseLatencyMs: 120,
    events: [{ kind: 'slow', startHoursAgo: 62 * DAY + 14, durationHours: 4 }],
    localTarget: 'site',
  },
  {
    key: 'api',
    input: {
      name: 'Public API',
      type: 'http',
      url: 'https://api.acme.example/health',
      interval: 30,
      regions: ['eu', 'us', 'asia'],
      autoIncidents: true,
      rules: [
        { type: 'status_code', operator: 'eq', value: 200 },
        { type: 'body', operator: 'contains', value: '"status":"ok"' },
      ],
    },
    baseLatencyMs: 180,
    // Slow since the last few hours (degraded now) and the spell behind the incident 5 days ago.
    events: [
      { kind: 'slow', startHoursAgo: 5, durationHours: 6 },
      { kind: 'slow', startHoursAgo: 5 * DAY + 3, durationHours: 4 },
      { kind: 'down', startHoursAgo: 5 * DAY + 2, durationHours: 1 },
    ],
    health: 'degraded',
    localTarget: 'api',
  },
  {
    key: 'dashboard',
    input: { name: 'Dashboard', type: 'http', url: 'https://app.acme.example/login', regions: ['eu'] },
    baseLatencyMs: 240,
    events: [{ kind: 'down', startHoursAgo: 21 * DAY + 7, durationHours: 1 }],
  },
  {
    key: 'payments',
    input: {
      name: 'Payments API',
      type: 'http',
      url: 'https://payments.acme.example/health',
      headers: { Accept: 'application/json' },
      regions: ['eu', 'us'],
      autoIncidents: true,
      rules: [
        { type: 'status_code', operator: 'eq', value: 200 },
        { type: 'header', name: 'content-type', operator: 'contains', value: 'json' },
      ],
    },
    baseLatencyMs: 210,
    // Down for the last three hours: the active incident.
    events: [{ kind: 'down', startHoursAgo: 2, durationHours: 3 }],
    health: 'down',
  },
  {
    key: 'database',
    // Checks a TCP port of this machine that nothing listens on, so it really goes down (and opens an
    // incident) until someone opens the port.
    input: { name: 'Primary database', type: 'tcp', host: 'db.acme.example', port: 5432, interval: 30, regions: ['eu'], autoIncidents: true },
    baseLatencyMs: 4,
    events: [{ kind: 'down', startHoursAgo: 40 * DAY + 5, durationHours: 2 }],
    localTarget: 'closed_port',
  },
  {
    key: 'cache',
    input: { name: 'Cache cluster', type: 'tcp', host: 'cache.acme.example', port: 6379, timeout: 5, regions: ['eu'] },
    baseLatencyMs: 2,
    events: [],
  },
  {
    key: 'edge',
    input: { name: 'Edge network', type: 'ping', host: 'edge.acme.example', regions: ['eu', 'us', 'asia'] },
    baseLatencyMs: 18,
    events: [{ kind: 'down', startHoursAgo: 75 * DAY + 3, durationHours: 2 }],
  },
  {
    key: 'dns',
    input: { name: 'DNS', type: 'ping', host: 'ns1.acme.example', interval: 120, regions: ['eu', 'us'] },
    baseLatencyMs: 9,
    events: [{ kind: 'slow', startHoursAgo: 12 * DAY + 20, durationHours: 5 }],
  },
  {
    key: 'runners',
    input: { name: 'Build runners', type: 'http', url: 'https://ci.acme.example/health', interval: 300, regions: ['eu'] },
    baseLatencyMs: 320,
    events: [{ kind: 'down', startHoursAgo: 33 * DAY + 10, durationHours: 3 }],
  },
];

export interface DemoPage {
  name: string;
  slug: string;
  isPublic: boolean;
  customDomain?: string;
  brandColor: string;
  logoUrl?: string;
  headerText?: string;
  footerText?: string;
  customCss?: string;
  showResponseTimes: boolean;
  links: { monitor: string; displayName?: string; sortOrder?: number }[];
}

export const DEMO_PAGES: DemoPage[] = [
  {
    name: 'Acme Cloud Status',
    slug: 'acme',
    isPublic: true,
    customDomain: 'status.acme.test',
    brandColor: '#5b21b6',
    logoUrl: DEMO_PLACEHOLDER_LOGO,
    headerText: '<strong>Acme Cloud</strong> platform status. Follow <a href="https://acme.example/blog">our engineering blog</a> for post-mortems.',
    footerText: 'Questions? <a href="mailto:support@acme.example">Contact support</a> &middot; <strong>24/7</strong> on-call.',
    // Restyles through the documented tokens and stable classes (themes/README.md).
    customCss: ':root { --pl-radius: 10px; }\n.pl-header__name { letter-spacing: 0.02em; }\n.pl-owner-footer a { text-decoration-thickness: 2px; }',
    showResponseTimes: true,
    links: [
      { monitor: 'website', displayName: 'Website', sortOrder: 10 },
      { monitor: 'api', displayName: 'API', sortOrder: 20 },
      { monitor: 'dashboard', displayName: 'Customer dashboard', sortOrder: 30 },
      { monitor: 'payments', displayName: 'Payments', sortOrder: 40 },
      { monitor: 'database', displayName: 'Database', sortOrder: 50 },
      { monitor: 'cache', displayName: 'Caching layer', sortOrder: 60 },
      { monitor: 'edge', displayName: 'Global edge network', sortOrder: 70 },
      { monitor: 'dns', displayName: 'DNS', sortOrder: 80 },
    ],
  },
  {
    name: 'Acme Internal',
    slug: 'internal',
    isPublic: false,
    brandColor: '#0f172a',
    headerText: 'Internal systems, for Acme staff only.',
    showResponseTimes: true,
    links: DEMO_MONITORS.map((monitor) => ({ monitor: monitor.key })),
  },
];

export interface DemoIncident {
  title: string;
  severity: IncidentSeverity;
  monitors: string[];
  /** Timeline oldest first; the first entry opens the incident. */
  timeline: { hoursAgo: number; status: IncidentStatus; message: string }[];
}

export const DEMO_INCIDENTS: DemoIncident[] = [
  {
    title: 'Database outage',
    severity: 'critical',
    monitors: ['database'],
    timeline: [
      { hoursAgo: 40 * DAY + 5, status: 'investigating', message: 'The primary database is not accepting connections. We are investigating.' },
      { hoursAgo: 40 * DAY + 4, status: 'identified', message: 'A full disk on the primary stopped writes. We are failing over to the replica.' },
      { hoursAgo: 40 * DAY + 3, status: 'resolved', message: 'Failover complete and disk space recovered. All systems operate normally.' },
    ],
  },
  {
    title: 'Elevated API latency',
    severity: 'minor',
    monitors: ['api'],
    timeline: [
      { hoursAgo: 5 * DAY + 3, status: 'investigating', message: 'API responses are slower than usual in all regions.' },
      { hoursAgo: 5 * DAY + 1, status: 'monitoring', message: 'A misbehaving deploy was rolled back. We are monitoring response times.' },
      { hoursAgo: 5 * DAY - 1, status: 'resolved', message: 'Response times are back to normal.' },
    ],
  },
  {
    title: 'Payment processing failures',
    severity: 'major',
    monitors: ['payments', 'api'],
    timeline: [
      { hoursAgo: 2.5, status: 'investigating', message: 'Card payments fail with errors. We are investigating.' },
      { hoursAgo: 1.75, status: 'identified', message: 'The payment provider rejects our requests after a certificate rotation.' },
      { hoursAgo: 0.5, status: 'identified', message: 'A fix is being deployed; payments stay unavailable until it completes. API latency is elevated meanwhile.' },
    ],
  },
];

export interface DemoWindow {
  title: string;
  description: string;
  monitors: string[];
  startHoursFromNow: number;
  durationHours: number;
  startNow: boolean;
}

export const DEMO_WINDOWS: DemoWindow[] = [
  {
    title: 'Cache cluster upgrade',
    description: 'Rolling upgrade of the cache cluster to the latest version. Brief latency spikes are possible.',
    monitors: ['cache'],
    startHoursFromNow: -0.5,
    durationHours: 2,
    startNow: true,
  },
  {
    title: 'Database maintenance',
    description: 'Planned database engine upgrade. Writes pause for up to 10 minutes.',
    monitors: ['database', 'dashboard'],
    startHoursFromNow: 3 * DAY,
    durationHours: 2,
    startNow: false,
  },
];

export const DEMO_CHANNELS: CreateChannelInput[] = [
  {
    name: 'Ops alerts (#ops-alerts)',
    type: 'slack',
    webhookUrl: 'https://hooks.slack.example/services/T0000/B0000/demo',
    onMaintenanceScheduled: false,
  },
  {
    name: 'On-call e-mail',
    type: 'email',
    recipientEmail: 'oncall@acme.example, ops@acme.example',
    onIncidentUpdated: false,
  },
];

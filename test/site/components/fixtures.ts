/**
 * View models for the component tests (and for eyeballing the components on a scratch page).
 * Built by hand, as the view layer would hand them over: already worded, already sanitized.
 */
import type {
  BrandingView,
  DayLevel,
  IncidentView,
  MaintenanceView,
  MonitorView,
  OverallView,
  ResponseChartView,
  StatusLevel,
  StatusPageView,
  TimeView,
  UptimeDayView,
} from '../../../src/site/view/types.ts';
import { uptimeBarView } from '../../../src/site/view/uptime-bar-view.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const NOW = Date.UTC(2026, 10, 22, 14, 5);

export function time(iso: string): TimeView {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const absolute = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
  return { iso: date.toISOString(), absolute };
}

export const OVERALL_LABELS: Record<StatusLevel, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Under maintenance',
};

export function overall(level: StatusLevel): OverallView {
  return { level, label: OVERALL_LABELS[level] };
}

/** 90 days, oldest first, ending on 22 Nov 2026; a few bad days and a gap without data. */
export function uptimeDays(count = 90): UptimeDayView[] {
  const special: Record<number, { level: DayLevel; uptime: string; incidents: number }> = {
    3: { level: 'none', uptime: 'No data', incidents: 0 },
    4: { level: 'none', uptime: 'No data', incidents: 0 },
    40: { level: 'minor', uptime: '99.20%', incidents: 1 },
    71: { level: 'major', uptime: '96.50%', incidents: 1 },
    88: { level: 'down', uptime: '81.00%', incidents: 2 },
  };
  return Array.from({ length: count }, (_, index) => {
    const date = new Date(NOW - (count - 1 - index) * 86_400_000);
    const key = date.toISOString().slice(0, 10);
    const label = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
    const day = special[index] ?? { level: 'up' as const, uptime: '100%', incidents: 0 };
    const incidentWords = day.incidents === 0 ? 'no incidents' : day.incidents === 1 ? '1 incident' : `${day.incidents} incidents`;
    const description = day.level === 'none' ? `${label}: No data` : `${label}: ${day.uptime} uptime, ${incidentWords}`;
    return { date: key, label, level: day.level, uptimeText: day.uptime, incidents: day.incidents, description };
  });
}

export const chart: ResponseChartView = {
  path: 'M0,30 L10,28 L20,31 L30,12 L40,26 L50,27 L60,25 L70,29 L80,24 L90,26 L100,22',
  viewBox: '0 0 100 40',
  minMs: 82,
  maxMs: 412,
  avgMs: 121,
  summary: 'Response time over the last 24 hours: average 121 ms, fastest 82 ms, slowest 412 ms',
};

export function monitor(overrides: Partial<MonitorView> = {}): MonitorView {
  const days = overrides.days ?? uptimeDays();
  return {
    id: 'mon_api',
    name: 'Public API',
    health: 'up',
    healthLabel: 'Operational',
    uptimeText: '99.95%',
    days,
    bar: uptimeBarView(days, overrides.name ?? 'Public API'),
    daysHref: '/acme/components/mon_api/',
    latencyText: '123 ms',
    chart,
    ...overrides,
  };
}

export const activeIncident: IncidentView = {
  id: 'inc_db',
  title: 'Database connection errors',
  href: '/acme/incidents/inc_db/',
  severity: 'major',
  severityLabel: 'Major',
  resolved: false,
  statusLabel: 'Identified',
  startedAt: time('2026-11-22T12:50:00Z'),
  resolvedAt: null,
  duration: null,
  affected: ['Public API', 'Dashboard'],
  updates: [
    { id: 'upd_3', statusLabel: 'Identified', message: 'A failed replica is being replaced.\nWrites may be slow.', at: time('2026-11-22T13:40:00Z') },
    { id: 'upd_2', statusLabel: 'Investigating', message: 'Error rates are rising for some requests.', at: time('2026-11-22T13:05:00Z') },
    { id: 'upd_1', statusLabel: 'Investigating', message: 'We are looking into reports of failed logins.', at: time('2026-11-22T12:50:00Z') },
  ],
};

export const resolvedIncident: IncidentView = {
  id: 'inc_cdn',
  title: 'Slow image loading',
  href: '/acme/incidents/inc_cdn/',
  severity: 'minor',
  severityLabel: 'Minor',
  resolved: true,
  statusLabel: 'Resolved',
  startedAt: time('2026-11-19T08:00:00Z'),
  resolvedAt: time('2026-11-19T09:30:00Z'),
  duration: '1 h 30 min',
  affected: ['CDN'],
  updates: [
    { id: 'upd_b', statusLabel: 'Resolved', message: 'Images load normally again.', at: time('2026-11-19T09:30:00Z') },
    { id: 'upd_a', statusLabel: 'Investigating', message: 'Images load slowly in Europe.', at: time('2026-11-19T08:00:00Z') },
  ],
};

export const runningMaintenance: MaintenanceView = {
  id: 'mnt_db',
  title: 'Database upgrade',
  description: 'Upgrading the primary database.\nWrites pause for up to 5 minutes.',
  state: 'running',
  start: time('2026-11-22T13:00:00Z'),
  end: time('2026-11-22T15:00:00Z'),
  affected: ['Public API'],
};

export const upcomingMaintenance: MaintenanceView = {
  id: 'mnt_net',
  title: 'Network switch replacement',
  description: null,
  state: 'upcoming',
  start: time('2026-11-25T02:00:00Z'),
  end: time('2026-11-25T03:00:00Z'),
  affected: [],
};

export const branding: BrandingView = {
  pageName: 'Acme Status',
  logoUrl: 'https://cdn.example.com/acme-logo.png',
  logoAlt: 'Acme',
  headerHtml: '<p><a href="https://acme.example.com">Back to acme.example.com</a></p>',
  footerHtml: '<p>Questions? <a href="mailto:support@acme.example.com">support@acme.example.com</a> &amp; more</p>',
  brandCss: '--pl-brand: #0b3d91; --pl-on-brand: #ffffff;',
  customCss: '.pl-banner { border-radius: 0; }\n:root { --pl-radius: 2px; }',
  homeHref: '/acme/',
};

export function statusPage(overrides: Partial<StatusPageView> = {}): StatusPageView {
  return {
    branding,
    overall: overall('partial_outage'),
    activeIncidents: [activeIncident],
    runningMaintenance: [runningMaintenance],
    upcomingMaintenance: [upcomingMaintenance],
    monitors: [
      monitor(),
      monitor({ id: 'mon_web', name: 'Website', health: 'degraded', healthLabel: 'Degraded performance', latencyText: '812 ms', chart: null }),
      monitor({ id: 'mon_mail', name: 'Email delivery', health: 'pending', healthLabel: 'No data yet', uptimeText: 'No data', latencyText: null, chart: null, days: uptimeDays().map((d) => ({ ...d, level: 'none' as const, uptimeText: 'No data', incidents: 0, description: `${d.label}: No data` })) }),
    ],
    showResponseTimes: true,
    recentIncidents: [resolvedIncident],
    historyHref: '/acme/history/',
    stale: null,
    subscribe: null,
    ...overrides,
  };
}

import type { SubscribeView } from './subscribe-view.ts';
/**
 * View models: everything a template shows, already computed, validated and sanitized.
 * `.astro` files receive these as props and only lay them out.
 */
import type { UptimeBarView } from './uptime-bar-view.ts';

export type StatusLevel = 'operational' | 'degraded' | 'partial_outage' | 'major_outage' | 'maintenance';
export type MonitorHealth = 'up' | 'down' | 'degraded' | 'maintenance' | 'paused' | 'pending' | 'unknown';
export type Severity = 'minor' | 'major' | 'critical' | 'unknown';
export type DayLevel = 'none' | 'up' | 'minor' | 'major' | 'down';

/**
 * A moment shown to people: machine-readable ISO plus UTC words computed on the server. Relative
 * words ("5 minutes ago") are the browser's job (enhance.js): rendered bytes never carry them.
 */
export interface TimeView {
  iso: string;
  /** e.g. "22 Nov 2026, 14:05 UTC" */
  absolute: string;
}

export interface BrandingView {
  pageName: string;
  /** Validated http(s) URL, or a path on the site (`/demo/acme-logo.svg`, shown under the site's base path), or null. */
  logoUrl: string | null;
  logoAlt: string;
  /** Sanitized owner HTML, safe for set:html. */
  headerHtml: string | null;
  footerHtml: string | null;
  /** Validated CSS declarations (custom properties only) for the brand color, or null. */
  brandCss: string | null;
  /** Owner CSS made safe to sit inside one <style> element, or null. */
  customCss: string | null;
  /** Link to the page's home: "/" on a custom domain, "/<slug>/" otherwise (see hrefs.ts). */
  homeHref: string;
}

export interface OverallView {
  level: StatusLevel;
  /** Words, never color alone: "All systems operational", "Partial outage"... */
  label: string;
}

export interface TimelineEntryView {
  id: string;
  statusLabel: string;
  message: string;
  at: TimeView;
}

export interface IncidentView {
  id: string;
  title: string;
  href: string;
  severity: Severity;
  severityLabel: string;
  resolved: boolean;
  statusLabel: string;
  startedAt: TimeView;
  resolvedAt: TimeView | null;
  /** How long a resolved incident lasted, e.g. "2 h 15 min"; null while it is ongoing. */
  duration: string | null;
  affected: string[];
  /** Newest first. */
  updates: TimelineEntryView[];
}

export interface MaintenanceView {
  id: string;
  title: string;
  description: string | null;
  state: 'running' | 'upcoming';
  start: TimeView;
  end: TimeView;
  affected: string[];
}

export interface UptimeDayView {
  date: string;
  /** e.g. "22 Nov 2026" */
  label: string;
  level: DayLevel;
  /** "99.95%" or "No data" */
  uptimeText: string;
  incidents: number;
  /** Full accessible text: "22 Nov 2026: 99.95% uptime, 1 incident". */
  description: string;
}

export interface ResponseChartView {
  /** SVG path data in viewBox units. */
  path: string;
  viewBox: string;
  minMs: number;
  maxMs: number;
  avgMs: number;
  /** Accessible summary: "Response time over the last 24 hours: average 120 ms, ..." */
  summary: string;
}

export interface MonitorView {
  id: string;
  name: string;
  health: MonitorHealth;
  healthLabel: string;
  /** Uptime over the whole bar, e.g. "99.95%" or "No data". */
  uptimeText: string;
  /** Oldest to newest, one per calendar day of the page's zone (90). */
  days: UptimeDayView[];
  /** The days drawn as one SVG, with their summary for screen readers. */
  bar: UptimeBarView;
  /** The day-by-day list behind the bar. */
  daysHref: string;
  /** e.g. "123 ms"; null when response times are hidden or unknown. */
  latencyText: string | null;
  chart: ResponseChartView | null;
}

export interface StaleNotice {
  asOf: TimeView;
}

export interface StatusPageView {
  branding: BrandingView;
  overall: OverallView;
  activeIncidents: IncidentView[];
  runningMaintenance: MaintenanceView[];
  upcomingMaintenance: MaintenanceView[];
  monitors: MonitorView[];
  showResponseTimes: boolean;
  /** Resolved incidents of the last 14 days, newest first. */
  recentIncidents: IncidentView[];
  historyHref: string;
  /** Set when the API is unreachable and the page shows the last known state. */
  stale: StaleNotice | null;
  /** The e-mail subscription form, or null when subscriptions are off. */
  subscribe: SubscribeView | null;
}

export interface IncidentPageView {
  branding: BrandingView;
  incident: IncidentView;
  historyHref: string;
  stale: StaleNotice | null;
}

export interface MonthLink {
  key: string;
  label: string;
  href: string;
}

export interface HistoryPageView {
  branding: BrandingView;
  month: { key: string; label: string };
  /** Newest first. */
  incidents: IncidentView[];
  newer: MonthLink | null;
  older: MonthLink | null;
  stale: StaleNotice | null;
}

export interface IndexPageView {
  organizationName: string;
  logoUrl: string | null;
  pages: { name: string; href: string; overall: OverallView }[];
  stale: StaleNotice | null;
}

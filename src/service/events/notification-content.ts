import type { EventFlag } from '../../contract/notification.ts';
import type { PAGE_CHANGED_EVENT } from '../../contract/porchlight-push.ts';
import type { IncidentEvent, MaintenanceEvent, MonitorEvent, PageChangedEvent, ServiceEvent } from './service-event.ts';

/** What a notification says, independent of the channel that carries it. */
export interface NotificationContent {
  /** One of the eight flags, or a page change (Porchlight's own push channel only). */
  event: EventFlag | typeof PAGE_CHANGED_EVENT;
  organization: string;
  /** One line, e.g. "Monitor down: Payments API". */
  title: string;
  /** A sentence or the incident update's message. */
  summary: string;
  fields: { label: string; value: string }[];
  /** Slack emoji shortcode that marks the kind of event. */
  emoji: string;
  at: string;
}

const list = (names: readonly string[]): string => (names.length > 0 ? names.join(', ') : 'none');

function monitorContent(event: MonitorEvent): Omit<NotificationContent, 'organization'> {
  const { monitor, check } = event;
  const down = event.type === 'onMonitorDown';
  const fields = [
    { label: 'Region', value: check.region },
    { label: 'Latency', value: `${check.latency} ms` },
    ...(check.statusCode !== null ? [{ label: 'Status code', value: String(check.statusCode) }] : []),
    ...(down && check.error ? [{ label: 'Error', value: check.error }] : []),
    { label: 'Checked at', value: check.checkedAt },
  ];
  return {
    event: event.type,
    title: `${down ? 'Monitor down' : 'Monitor recovered'}: ${monitor.name}`,
    summary: down
      ? `${monitor.name} (${monitor.type}) failed ${event.consecutiveFailures} consecutive check${event.consecutiveFailures === 1 ? '' : 's'}.`
      : `${monitor.name} (${monitor.type}) is up again.`,
    fields,
    emoji: down ? ':red_circle:' : ':large_green_circle:',
    at: event.at,
  };
}

const INCIDENT_HEADINGS: Record<IncidentEvent['type'], { heading: string; emoji: string }> = {
  onIncidentCreated: { heading: 'Incident opened', emoji: ':rotating_light:' },
  onIncidentUpdated: { heading: 'Incident updated', emoji: ':speech_balloon:' },
  onIncidentResolved: { heading: 'Incident resolved', emoji: ':white_check_mark:' },
};

function incidentContent(event: IncidentEvent): Omit<NotificationContent, 'organization'> {
  const { incident } = event;
  const { heading, emoji } = INCIDENT_HEADINGS[event.type];
  return {
    event: event.type,
    title: `${heading}: ${incident.title}`,
    summary: incident.message,
    fields: [
      { label: 'Status', value: incident.status },
      { label: 'Severity', value: incident.severity },
      { label: 'Affected monitors', value: list(incident.monitors) },
      ...(event.automatic ? [{ label: 'Source', value: 'opened and resolved automatically by monitoring' }] : []),
    ],
    emoji,
    at: event.at,
  };
}

const MAINTENANCE_HEADINGS: Record<MaintenanceEvent['type'], { heading: string; emoji: string }> = {
  onMaintenanceScheduled: { heading: 'Maintenance scheduled', emoji: ':calendar:' },
  onMaintenanceStarted: { heading: 'Maintenance started', emoji: ':construction:' },
  onMaintenanceCompleted: { heading: 'Maintenance completed', emoji: ':white_check_mark:' },
};

function maintenanceContent(event: MaintenanceEvent): Omit<NotificationContent, 'organization'> {
  const { window } = event;
  const { heading, emoji } = MAINTENANCE_HEADINGS[event.type];
  return {
    event: event.type,
    title: `${heading}: ${window.title}`,
    summary: window.description ?? `Planned maintenance from ${window.scheduledStart} to ${window.scheduledEnd}.`,
    fields: [
      { label: 'Scheduled start', value: window.scheduledStart },
      { label: 'Scheduled end', value: window.scheduledEnd },
      { label: 'Affected monitors', value: list(window.monitors) },
      ...(event.automatic ? [{ label: 'Source', value: 'moved by its scheduled time' }] : []),
    ],
    emoji,
    at: event.at,
  };
}

export function notificationContent(event: ServiceEvent, organization: string): NotificationContent {
  const content = 'monitor' in event ? monitorContent(event) : 'incident' in event ? incidentContent(event) : maintenanceContent(event);
  return { ...content, organization };
}

const PAGE_CHANGE_WORDS: Record<PageChangedEvent['change'], string> = { created: 'created', updated: 'changed', deleted: 'deleted' };

/** A status page change, for Porchlight's own push channel: the site re-reads its pages list. */
export function pageChangedContent(event: PageChangedEvent, organization: string): NotificationContent {
  return {
    event: event.type,
    organization,
    title: `Status page ${PAGE_CHANGE_WORDS[event.change]}: ${event.page.name}`,
    summary: `The status page "${event.page.slug}" was ${PAGE_CHANGE_WORDS[event.change]}.`,
    fields: [],
    emoji: ':page_facing_up:',
    at: event.at,
  };
}

import type { Incident } from '../../contract/index.ts';
import { durationParts } from '../lib/format-date.ts';
import {
  incidentMonitorIds,
  incidentStatusLabel,
  isIncidentActive,
  normalizeSeverity,
  severityLabel,
  sortedTimeline,
} from '../lib/incidents.ts';
import { pageHrefs } from './hrefs.ts';
import { affectedServices, type PageContext } from './page-context.ts';
import { timeView } from './time-view.ts';
import type { IncidentView } from './types.ts';

/**
 * One incident as a page shows it. Affected services are named as this page labels them, and
 * only those linked to the page: an incident may touch services another page keeps private.
 */
export function incidentView(
  incident: Incident,
  context: Pick<PageContext, 'rows' | 'basePath' | 'now' | 'i18n'>,
): IncidentView {
  const resolved = !isIncidentActive(incident);
  const { i18n } = context;
  return {
    id: incident.id,
    title: incident.title,
    href: pageHrefs(context.basePath).incident(incident.id),
    severity: normalizeSeverity(incident.severity),
    severityLabel: severityLabel(incident.severity, i18n),
    resolved,
    statusLabel: incidentStatusLabel(incident.status, i18n),
    startedAt: timeView(incident.startedAt, i18n),
    resolvedAt: resolved && incident.resolvedAt ? timeView(incident.resolvedAt, i18n) : null,
    // Only a closed interval: "ongoing for 2 h" would be false once the page sits on a CDN.
    duration: resolved && incident.resolvedAt ? i18n.duration(durationParts(incident.startedAt, incident.resolvedAt, context.now)) : null,
    affected: affectedServices(context, incidentMonitorIds(incident)),
    updates: sortedTimeline(incident.updates).map((update) => ({
      id: update.id,
      statusLabel: incidentStatusLabel(update.status, i18n),
      message: update.message,
      at: timeView(update.createdAt, i18n),
    })),
  };
}

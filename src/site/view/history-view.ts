import type { StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { incidentsInMonth, isMonthKey, listIncidentMonths, monthNavigation } from '../lib/incidents.ts';
import { zoneMonthKey } from '../lib/zone-days.ts';
import { incidentView } from './incident-view.ts';
import { pageHrefs } from './hrefs.ts';
import { pageContext, type PageOptions } from './page-context.ts';
import type { HistoryPageView, MonthLink } from './types.ts';

/**
 * Past incidents of one month, newest first, with links to the nearest months that have any.
 * No month given: the current one. Months are the page's zone's (a month starts at its local
 * midnight, as the uptime bars' days do). A malformed month: null (a 404 then).
 */
export function historyView(
  snapshot: Snapshot,
  page: StatusPage,
  month: string | null,
  options: PageOptions,
): HistoryPageView | null {
  if (month !== null && !isMonthKey(month)) return null;
  const context = pageContext(snapshot, page, options);
  const timeZone = context.i18n.timeZone;
  const current = month ?? zoneMonthKey(options.now.getTime(), timeZone);
  const navigation = monthNavigation(listIncidentMonths(context.incidents, timeZone), current);
  const link = (key: string | null): MonthLink | null =>
    key === null ? null : { key, label: context.i18n.month(key), href: pageHrefs(options.basePath).month(key) };
  return {
    branding: context.branding,
    month: { key: current, label: context.i18n.month(current) },
    incidents: incidentsInMonth(context.incidents, current, timeZone).map((incident) => incidentView(incident, context)),
    newer: link(navigation.newer),
    older: link(navigation.older),
    stale: context.stale,
  };
}

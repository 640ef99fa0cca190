import type { StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { pastIncidents } from '../lib/incidents.ts';
import { computeOverallStatus, overallStatusLabel } from '../lib/overall-status.ts';
import { incidentView } from './incident-view.ts';
import { maintenanceView } from './maintenance-view.ts';
import { monitorViews } from './monitor-view.ts';
import { pageHrefs } from './hrefs.ts';
import { pageContext, type PageOptions } from './page-context.ts';
import type { OverallView, StatusPageView } from './types.ts';
import { subscribeView } from './subscribe-view.ts';

export function overallView(context: ReturnType<typeof pageContext>): OverallView {
  const overall = computeOverallStatus({
    monitors: context.rows.map((row) => ({ status: row.status })),
    activeIncidents: context.active,
    runningMaintenance: context.maintenance.running,
  });
  return { level: overall.level, label: overallStatusLabel(overall.wording, context.i18n) };
}

/** Everything the status page template shows, for one page of one snapshot. */
export function statusPageView(
  snapshot: Snapshot,
  page: StatusPage,
  options: PageOptions & { subscribe?: { enabled: boolean; formOrigin: string | null } },
): StatusPageView {
  const context = pageContext(snapshot, page, options);
  const incident = (item: Snapshot['incidents'][number]) => incidentView(item, context);
  return {
    branding: context.branding,
    overall: overallView(context),
    activeIncidents: context.active.map(incident),
    runningMaintenance: context.maintenance.running.map((window) => maintenanceView(window, 'running', context)),
    upcomingMaintenance: context.maintenance.upcoming.map((window) => maintenanceView(window, 'upcoming', context)),
    monitors: monitorViews(context, snapshot.histories),
    showResponseTimes: page.showResponseTimes !== false,
    recentIncidents: pastIncidents(context.incidents, { now: options.now, days: 14 }).map(incident),
    historyHref: pageHrefs(options.basePath).history,
    stale: context.stale,
    subscribe: subscribeView(context, options.subscribe ?? { enabled: false, formOrigin: null }),
  };
}

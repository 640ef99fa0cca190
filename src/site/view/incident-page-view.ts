import type { StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { incidentView } from './incident-view.ts';
import { pageHrefs } from './hrefs.ts';
import { pageContext, type PageOptions } from './page-context.ts';
import type { IncidentPageView } from './types.ts';

/** The permalink of one incident; null when it does not concern this page (a 404 then). */
export function incidentPageView(
  snapshot: Snapshot,
  page: StatusPage,
  incidentId: string,
  options: PageOptions,
): IncidentPageView | null {
  const context = pageContext(snapshot, page, options);
  const incident = context.incidents.find((candidate) => candidate.id === incidentId);
  if (!incident) return null;
  return {
    branding: context.branding,
    incident: incidentView(incident, context),
    historyHref: pageHrefs(options.basePath).history,
    stale: context.stale,
  };
}

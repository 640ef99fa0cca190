/**
 * Which incident a preview shows (the incident template's and the e-mail's, one rule): the one
 * asked for if the page shows it, else the page's newest, the active ones first.
 */
import type { Incident, StatusPage } from '../../contract/index.ts';
import type { Snapshot } from '../data/snapshot.ts';
import { isIncidentActive } from '../lib/incidents.ts';
import { parseInstant } from '../lib/time.ts';
import { pageContext } from '../view/page-context.ts';

export function previewIncident(snapshot: Snapshot, page: StatusPage, wanted: string | undefined): Incident | null {
  const context = pageContext(snapshot, page, { basePath: '', now: snapshot.fetchedAt, stale: false });
  if (wanted) return context.incidents.find((incident) => incident.id === wanted) ?? null;
  const started = (incident: Incident) => parseInstant(incident.startedAt) ?? 0;
  const sorted = [...context.incidents].sort((a, b) => Number(isIncidentActive(b)) - Number(isIncidentActive(a)) || started(b) - started(a));
  return sorted[0] ?? null;
}

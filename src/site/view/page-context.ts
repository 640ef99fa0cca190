/**
 * What every view of one status page shares: the page's linked monitors joined with their
 * health, the incidents and maintenance that concern them, and the page's branding.
 */
import type { Snapshot } from '../data/snapshot.ts';
import type { StatusPage } from '../../contract/index.ts';
import { activeIncidents, incidentsForPage } from '../lib/incidents.ts';
import { maintenanceForPage, monitorsUnderMaintenance, selectMaintenance } from '../lib/maintenance.ts';
import { joinPageMonitors, pageMonitorIds } from '../lib/page-monitors.ts';
import { brandingView } from './branding.ts';
import { pageHrefs } from './hrefs.ts';
import { staleNotice } from './time-view.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import type { BrandingView, StaleNotice } from './types.ts';

export interface PageContext {
  page: StatusPage;
  /** The page's root without a trailing slash (see hrefs.ts). */
  basePath: string;
  now: Date;
  branding: BrandingView;
  monitorIds: ReadonlySet<string>;
  rows: ReturnType<typeof joinPageMonitors<Snapshot['monitors'][number]>>;
  incidents: Snapshot['incidents'];
  active: Snapshot['incidents'];
  /** What the HTML page shows: running windows, and upcoming ones within its horizon. */
  maintenance: ReturnType<typeof selectMaintenance<Snapshot['maintenance'][number]>>;
  /** Every window affecting the page, in any state (feeds, JSON and the calendar pick from these). */
  windows: Snapshot['maintenance'];
  stale: StaleNotice | null;
  /** The language and time zone the page speaks (English and UTC unless given). */
  i18n: Translator;
  /** The page's root in its default language, where feeds, JSON, badges and the widget live. */
  rootPath: string;
}

export interface PageOptions {
  basePath: string;
  now: Date;
  stale: boolean;
  i18n?: Translator;
  /** Defaults to basePath (the page in its default language). */
  rootPath?: string;
}

export function pageContext(snapshot: Snapshot, page: StatusPage, options: PageOptions): PageContext {
  const i18n = options.i18n ?? translator();
  const monitorIds = pageMonitorIds(page.monitors);
  const maintenance = selectMaintenance(snapshot.maintenance, monitorIds, options.now);
  const rows = joinPageMonitors(page.monitors, snapshot.monitors, { underMaintenance: monitorsUnderMaintenance(maintenance.running) });
  const incidents = incidentsForPage(snapshot.incidents, monitorIds);
  return {
    page,
    basePath: options.basePath,
    now: options.now,
    branding: brandingView(page, snapshot.organization, pageHrefs(options.basePath).home, i18n),
    monitorIds,
    rows,
    incidents,
    active: activeIncidents(incidents),
    maintenance,
    windows: maintenanceForPage(snapshot.maintenance, monitorIds),
    stale: staleNotice(snapshot.fetchedAt, options.stale, i18n),
    i18n,
    rootPath: options.rootPath ?? options.basePath,
  };
}

/**
 * The services among `monitorIds` that this page shows, named and ordered as the page lists them;
 * a monitor the page does not show is never named (it may be private to another page). The HTML
 * page, the feeds and the calendar all name affected services with this one rule.
 */
export function affectedServices(context: Pick<PageContext, 'rows'>, monitorIds: ReadonlySet<string>): string[] {
  return context.rows.filter((row) => monitorIds.has(row.monitorId)).map((row) => row.label);
}

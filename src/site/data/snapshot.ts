/**
 * One snapshot of everything the public pages show, loaded from the API in a bounded number of
 * requests: the lists the refresh plan names (all five, or those a push can have changed; the
 * others are the previous snapshot's), plus check pages for the monitors linked to public pages
 * whose checks moved, at the pace of refresh-plan.ts (see uptime-history.ts). Private pages are
 * loaded only so their slugs and domains can be refused.
 */
import type { Incident, MaintenanceWindow, Monitor, Organization, StatusPage } from '../../contract/index.ts';
import type { ApiClient } from '../../api/index.ts';
import { DEFAULT_HISTORY_PACE, LISTS, monitorsToCatchUp, type HistoryPace, type ListName } from './refresh-plan.ts';
import { alignHistories, refreshHistories, type HistoryOptions, type MonitorHistory } from './uptime-history.ts';

export interface Snapshot {
  organization: Organization | null;
  pages: StatusPage[];
  monitors: Monitor[];
  incidents: Incident[];
  maintenance: MaintenanceWindow[];
  /** Deep copies, frozen in time with the rest of the snapshot. */
  histories: ReadonlyMap<string, MonitorHistory>;
  fetchedAt: Date;
}

export interface LoadOptions {
  now: () => Date;
  /** Check pages one refresh may spend on backfilling history. */
  backfillBudget: number;
  concurrency: number;
  /** Leave the histories as they are this time (e.g. while a 429 on check pages holds). */
  skipHistory?: boolean;
  /** Told when history work failed; the snapshot is published all the same. */
  onHistoryError?: (error: unknown) => void;
  historyOptions?: HistoryOptions;
  /** The snapshot this refresh builds on: lists not read this time are taken from it. */
  previous?: Snapshot | null;
  /** The lists to read (refresh-plan.ts); all five when absent or when there is no previous snapshot. */
  lists?: ReadonlySet<ListName>;
  historyPace?: HistoryPace;
  /** Time zones of the pages, whose calendar days the uptime bars count besides UTC. */
  timeZones?: readonly string[];
  /** Whether a non-public page has an audience: its monitors' uptime is kept too. */
  hasAudience?: (pageId: string) => boolean;
  /** Awaited before each check page (the rate-limit pacer spreads them). */
  beforeCheckPage?: () => Promise<void>;
}

/**
 * Monitors that some public page shows, or a non-public page with an audience
 * (`hasAudience`, docs/private-pages.md): the only ones whose checks are worth fetching.
 */
export function publicMonitorIds(pages: readonly StatusPage[], hasAudience: (pageId: string) => boolean = () => false): string[] {
  const ids = new Set<string>();
  for (const page of pages) {
    if (page.isPublic === false && !hasAudience(page.id)) continue;
    for (const link of page.monitors) ids.add(link.monitorId);
  }
  return [...ids];
}

/**
 * Loads a snapshot, advancing `histories` in place (they are the long-lived aggregates).
 * Throws the client's typed errors when a list fails: the previous snapshot keeps being served.
 * A failing check page only stops this refresh's history work: the lists are what a visitor
 * needs most, and the uptime bars catch up on a later refresh.
 */
export async function loadSnapshot(client: ApiClient, histories: Map<string, MonitorHistory>, options: LoadOptions): Promise<Snapshot> {
  const previous = options.previous ?? null;
  const lists: ReadonlySet<ListName> = previous && options.lists ? options.lists : new Set(LISTS);
  const [organization, pages, monitors, incidents, maintenance] = await Promise.all([
    lists.has('organization') || !previous ? client.organization.get() : previous.organization,
    lists.has('pages') || !previous ? Array.fromAsync(client.statusPages.listAll()) : previous.pages,
    lists.has('monitors') || !previous ? Array.fromAsync(client.monitors.listAll()) : previous.monitors,
    lists.has('incidents') || !previous ? Array.fromAsync(client.incidents.listAll()) : previous.incidents,
    lists.has('maintenance') || !previous ? Array.fromAsync(client.maintenance.listAll()) : previous.maintenance,
  ]);
  const byId = new Map(monitors.map((monitor) => [monitor.id, monitor]));
  const tracked = publicMonitorIds(pages, options.hasAudience).filter((id) => byId.has(id));
  const now = options.now();
  // Before planning: a history started again for a new zone is caught up as a new one.
  if (!options.skipHistory) alignHistories(histories, tracked, options.timeZones ?? []);
  const due = monitorsToCatchUp(tracked.map((id) => byId.get(id)!), histories, now.getTime(), options.historyPace ?? DEFAULT_HISTORY_PACE);
  const history = options.skipHistory ? null : await refreshHistories(
    histories,
    tracked,
    async (monitorId, offset, limit) => {
      await options.beforeCheckPage?.();
      const page = await client.monitors.listChecks(monitorId, { offset, limit });
      return { checks: page.data, hasMore: page.pagination.hasMore };
    },
    {
      now,
      backfillBudget: options.backfillBudget,
      concurrency: options.concurrency,
      catchUp: new Map(due.map((id) => [id, byId.get(id)!.lastCheckedAt ?? null])),
      ...(options.timeZones ? { timeZones: options.timeZones } : {}),
      ...(options.historyOptions ? { options: options.historyOptions } : {}),
    },
  );
  if (history?.error) options.onHistoryError?.(history.error);
  return {
    organization,
    pages,
    monitors,
    incidents,
    maintenance,
    histories: new Map([...histories].map(([id, history]) => [id, structuredClone(history)])),
    fetchedAt: now,
  };
}

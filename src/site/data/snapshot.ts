/**
 * One snapshot of everything the public pages show, loaded from the API in a bounded number of
 * requests: five lists, plus check pages for the monitors linked to public pages (see
 * uptime-history.ts). Private pages are loaded only so their slugs and domains can be refused.
 */
import type { Incident, MaintenanceWindow, Monitor, Organization, StatusPage } from '../../contract/index.ts';
import type { ApiClient } from '../../api/index.ts';
import { refreshHistories, type HistoryOptions, type MonitorHistory } from './uptime-history.ts';

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
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Monitors that some public page shows: the only ones whose checks are worth fetching. */
export function publicMonitorIds(pages: readonly StatusPage[]): string[] {
  const ids = new Set<string>();
  for (const page of pages) {
    if (page.isPublic === false) continue;
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
  const [organization, pages, monitors, incidents, maintenance] = await Promise.all([
    client.organization.get(),
    collect(client.statusPages.listAll()),
    collect(client.monitors.listAll()),
    collect(client.incidents.listAll()),
    collect(client.maintenance.listAll()),
  ]);
  const known = new Set(monitors.map((monitor) => monitor.id));
  const tracked = publicMonitorIds(pages).filter((id) => known.has(id));
  const history = options.skipHistory ? null : await refreshHistories(
    histories,
    tracked,
    async (monitorId, offset, limit) => {
      const page = await client.monitors.listChecks(monitorId, { offset, limit });
      return { checks: page.data, hasMore: page.pagination.hasMore };
    },
    {
      now: options.now(),
      backfillBudget: options.backfillBudget,
      concurrency: options.concurrency,
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
    fetchedAt: options.now(),
  };
}

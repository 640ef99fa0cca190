/**
 * What one refresh of the status data asks the API for, so the site's API use follows what
 * changed rather than the clock (pure: site-data.ts and uptime-history.ts act on these answers).
 *
 * - Lists: a poll reads all five; a push reads the lists its events can have changed (a push
 *   that names nothing, or something unknown, reads all five).
 * - Check pages: a monitor's history is caught up only when its `lastCheckedAt` moved since the
 *   last catch-up, at most once per `historyIntervalMs` and `maxCatchUpsPerRefresh` a refresh,
 *   the longest-waiting first: status comes from the monitor list at once, the uptime bars and
 *   response times follow at a calmer pace, spread over refreshes instead of in bursts.
 * - Freshness: with push working (a push received, or the push channel verified, within the
 *   last hour) polling is only the safety net; without it `CACHE_FRESH_SECONDS` is the bound.
 */

import { PAGE_CHANGED_EVENT } from '../../contract/porchlight-push.ts';

export const LISTS = ['organization', 'pages', 'monitors', 'incidents', 'maintenance'] as const;
export type ListName = (typeof LISTS)[number];

/** What a push said changed: the event name of its X-Porchlight-Event header, or null. */
export type PushEvent = string | null;

/**
 * The site's own ask for the status pages alone (pages-freshness.ts: the periodic read, and
 * names the data does not know); never an event name of the API (they start `on`).
 */
export const PAGES_WANTED: PushEvent = 'porchlight:pages';

/** The lists each known event can change (an auto-incident comes with the monitor's event). */
const LISTS_BY_EVENT: Readonly<Record<string, readonly ListName[]>> = {
  [PAGES_WANTED]: ['pages'],
  // Porchlight's own channel only (contract/porchlight-push.ts): a page created, changed or deleted.
  [PAGE_CHANGED_EVENT]: ['pages'],
  onMonitorDown: ['monitors', 'incidents'],
  onMonitorRecovered: ['monitors', 'incidents'],
  onIncidentCreated: ['incidents'],
  onIncidentUpdated: ['incidents'],
  onIncidentResolved: ['incidents'],
  onMaintenanceScheduled: ['maintenance', 'monitors'],
  onMaintenanceStarted: ['maintenance', 'monitors'],
  onMaintenanceCompleted: ['maintenance', 'monitors'],
};

/** The lists a refresh reads: all for a poll (`events` null) or a push naming nothing known. */
export function listsToRead(events: readonly PushEvent[] | null): Set<ListName> {
  if (events === null || events.length === 0) return new Set(LISTS);
  const lists = new Set<ListName>();
  for (const event of events) {
    const named = event === null ? undefined : LISTS_BY_EVENT[event];
    if (!named) return new Set(LISTS);
    for (const list of named) lists.add(list);
  }
  return lists;
}

export interface HistoryMark {
  /** The monitor's `lastCheckedAt` when its history was last caught up (null: never, or not given). */
  seenLastCheckedAt?: string | null | undefined;
  /** When that catch-up ran (ISO), for the calmer pace. */
  caughtUpAt?: string | null | undefined;
}

export interface HistoryPace {
  /** A monitor's history is caught up at most this often. */
  intervalMs: number;
  /** At most this many monitors already known are caught up by one refresh (new ones always are). */
  maxCatchUpsPerRefresh: number;
}

/** At the calmer pace of check history: every 5 minutes, 25 monitors a refresh at most. */
export const DEFAULT_HISTORY_PACE: HistoryPace = { intervalMs: 300_000, maxCatchUpsPerRefresh: 25 };

/**
 * The monitors whose check pages this refresh reads, in order. A monitor seen for the first
 * time always is (its bar needs a start); one whose API leaves `lastCheckedAt` out is treated as
 * moved, at the calmer pace; one whose `lastCheckedAt` has not moved (null included: never
 * checked, as a paused monitor may be) never is.
 */
export function monitorsToCatchUp(
  monitors: readonly { id: string; lastCheckedAt?: string | null | undefined }[],
  marks: ReadonlyMap<string, HistoryMark>,
  nowMs: number,
  pace: HistoryPace = DEFAULT_HISTORY_PACE,
): string[] {
  const fresh: string[] = [];
  const due: { id: string; since: number }[] = [];
  for (const monitor of monitors) {
    const mark = marks.get(monitor.id);
    const caughtUp = mark?.caughtUpAt ? Date.parse(mark.caughtUpAt) : Number.NaN;
    if (!mark || Number.isNaN(caughtUp)) {
      fresh.push(monitor.id);
      continue;
    }
    // An API that leaves the field out tells nothing: moved. Null (never checked) stays null while paused.
    const moved = monitor.lastCheckedAt === undefined || (monitor.lastCheckedAt ?? null) !== (mark.seenLastCheckedAt ?? null);
    if (moved && nowMs - caughtUp >= pace.intervalMs) due.push({ id: monitor.id, since: caughtUp });
  }
  due.sort((a, b) => a.since - b.since || (a.id < b.id ? -1 : 1));
  return [...fresh, ...due.slice(0, pace.maxCatchUpsPerRefresh).map((entry) => entry.id)];
}

/** Push counts as working for this long after the last sign of it. */
export const PUSH_WORKING_MS = 3_600_000;

/**
 * How long the data now loaded stays fresh: the safety-net poll with push working, else
 * `freshMs`, counted from the last refresh that read every list (`lastFullReadMs`; now when
 * absent), so that refreshes of a few lists (pushes, the pages list) never put the poll off.
 * Never less than a millisecond (a TTL of 0 would mean "forever" to the cache).
 */
export function freshnessMs(options: { freshMs: number; pushPollMs: number; lastPushSignMs: number | null; nowMs: number; lastFullReadMs?: number | null }): number {
  const working = options.lastPushSignMs !== null && options.nowMs - options.lastPushSignMs <= PUSH_WORKING_MS;
  const period = working ? Math.max(options.freshMs, options.pushPollMs) : options.freshMs;
  const since = options.lastFullReadMs ?? options.nowMs;
  return Math.max(1, since + period - options.nowMs);
}

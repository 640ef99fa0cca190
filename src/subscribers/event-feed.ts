/**
 * Turns successive snapshots into recorded events and queued mails. The first snapshot after a
 * start is compared with what the last run saw (feed-baseline.ts), or, on a first start, is only
 * the baseline: nothing that already existed is mailed. Each event is rendered for each public
 * page that shows it and recorded with its mail before anything is sent.
 */
import type { Snapshot } from '../site/data/snapshot.ts';
import { publicPages } from '../site/view/routing.ts';
import { pageMonitorIds } from '../site/lib/page-monitors.ts';
import { eventMail } from './mail-view.ts';
import { pageAddress, subscribeUrls, type LinkSettings } from './page-address.ts';
import { decodeBaseline, encodeBaseline } from './feed-baseline.ts';
import { diffSnapshots, type EventSource } from './snapshot-events.ts';
import type { StoredMail } from './outbox-sender.ts';
import type { SubscriberStore } from './store.ts';

export interface FeedResult {
  events: number;
  queued: number;
  removed: number;
}

export class EventFeed {
  private previous: EventSource | null;
  private readonly store: SubscriberStore;
  private readonly links: LinkSettings;
  private readonly pageGraceMs: number;
  private readonly monitorDown: boolean;

  constructor(store: SubscriberStore, links: LinkSettings, options: { pageGraceMs: number; monitorDown: boolean; now?: number }) {
    this.store = store;
    this.links = links;
    this.pageGraceMs = options.pageGraceMs;
    this.monitorDown = options.monitorDown;
    this.previous = decodeBaseline(store.readFeedBaseline(), options.now ?? Date.now());
  }

  /** A freshly loaded snapshot (never a restored one: those are not news). */
  take(snapshot: Snapshot, now: number): FeedResult {
    const previous = this.previous;
    this.previous = snapshot;
    const removed = this.store.notePages(new Set(snapshot.pages.map((page) => page.id)), now, this.pageGraceMs);
    if (!previous) {
      this.store.writeFeedBaseline(encodeBaseline(snapshot, now));
      return { events: 0, queued: 0, removed };
    }
    const events = diffSnapshots(previous, snapshot, { monitorDown: this.monitorDown });
    let queued = 0;
    const pages = publicPages(snapshot.pages);
    for (const event of events) {
      for (const page of pages) {
        const monitorIds = pageMonitorIds(page.monitors);
        if (![...event.monitorIds].some((id) => monitorIds.has(id))) continue;
        const address = pageAddress(page, this.links);
        const mail = eventMail(snapshot, page, event, address);
        if (!mail) continue;
        const stored: StoredMail = { ...mail, manageBase: subscribeUrls(address).manageBase };
        queued += this.store.recordEvent(page.id, event.key, JSON.stringify(stored), event.monitorIds, now);
      }
    }
    // Saved once the events are recorded: a crash before this finds them again on the next start,
    // and the store keeps each event's key once, so nothing is mailed twice.
    this.store.writeFeedBaseline(encodeBaseline(snapshot, now));
    return { events: events.length, queued, removed };
  }
}

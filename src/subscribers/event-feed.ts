/**
 * Turns successive snapshots into recorded events and queued mails. The first snapshot after a
 * start is compared with what the last run saw (feed-baseline.ts), or, on a first start, is only
 * the baseline: nothing that already existed is mailed. Each event is rendered for each public
 * page that shows it, in each language that page's subscribers read, and recorded with its mails
 * before anything is sent.
 */
import { type Snapshot, publicPages, pageMonitorIds, pageLanguage, type LanguageSettings, translator, localeBasePath } from '../site/public.ts';
import { eventMail } from './mail-view.ts';
import { pageAddress, subscribeUrls, type LinkSettings } from './page-address.ts';
import { decodeBaseline, encodeBaseline } from './feed-baseline.ts';
import { diffSnapshots, type EventSource, type SiteEvent } from './snapshot-events.ts';
import type { StoredEvent } from './outbox-sender.ts';
import { SUBSCRIBER_CHANNELS, type SubscriberStore } from './store.ts';
import { componentChanges, componentPayload, eventPayload } from './webhook-payload.ts';
import { chooseLocale } from './subscriber-language.ts';
import type { StatusPage } from '../contract/index.ts';
import { eventAudience, type AudienceCheck } from './private-subscribers.ts';

export interface FeedResult {
  events: number;
  queued: number;
  removed: number;
}

export interface FeedOptions {
  pageGraceMs: number;
  monitorDown: boolean;
  /** The audiences store's answers: events of a non-public page with an audience go to its live viewers (private-subscribers.ts). */
  audiences?: AudienceCheck | null;
}

export class EventFeed {
  private previous: EventSource | null;
  private readonly store: SubscriberStore;
  private readonly links: LinkSettings;
  private readonly pageGraceMs: number;
  private readonly monitorDown: boolean;
  private readonly languages: LanguageSettings;
  /** Pages with an audience (null: non-public pages mail no one). */
  private readonly audiences: AudienceCheck | null;

  private turn: Promise<unknown> = Promise.resolve();

  private constructor(store: SubscriberStore, links: LinkSettings, languages: LanguageSettings, options: FeedOptions, previous: EventSource | null) {
    this.store = store;
    this.audiences = options.audiences ?? null;
    this.links = links;
    this.languages = languages;
    this.pageGraceMs = options.pageGraceMs;
    this.monitorDown = options.monitorDown;
    this.previous = previous;
  }

  /** The feed, comparing first against the baseline the store kept. */
  static async open(store: SubscriberStore, links: LinkSettings, languages: LanguageSettings, options: FeedOptions & { now?: number }): Promise<EventFeed> {
    return new EventFeed(store, links, languages, options, decodeBaseline(await store.readFeedBaseline(), options.now ?? Date.now()));
  }

  /** A freshly loaded snapshot (never a restored one: those are not news). Snapshots are taken one at a time, in order. */
  take(snapshot: Snapshot, now: number): Promise<FeedResult> {
    const result = this.turn.then(() => this.takeNow(snapshot, now));
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async takeNow(snapshot: Snapshot, now: number): Promise<FeedResult> {
    const previous = this.previous;
    const removed = await this.store.notePages(new Set(snapshot.pages.map((page) => page.id)), now, this.pageGraceMs);
    if (!previous) {
      await this.store.writeFeedBaseline(encodeBaseline(snapshot, now));
      this.previous = snapshot;
      return { events: 0, queued: 0, removed };
    }
    const events = diffSnapshots(previous, snapshot, { monitorDown: this.monitorDown });
    const changes = componentChanges(previous.monitors, snapshot.monitors, snapshot.fetchedAt);
    let queued = 0;
    const pages = publicPages(snapshot.pages);
    const gated = this.audiences ? snapshot.pages.filter((page) => page.isPublic === false) : [];
    for (const event of events) {
      for (const page of pages) {
        const monitorIds = pageMonitorIds(page.monitors);
        if (![...event.monitorIds].some((id) => monitorIds.has(id))) continue;
        const stored = await this.render(snapshot, page, event);
        if (!stored) continue;
        const channels = stored.hook ? SUBSCRIBER_CHANNELS : SUBSCRIBER_CHANNELS.filter((channel) => channel !== 'webhook');
        queued += await this.store.recordEvent(page.id, event.key, JSON.stringify(stored), event.monitorIds, now, channels);
      }
      // A page with an audience: e-mail only, to the subscribers whose grant is live now.
      for (const page of gated) {
        if (!this.audiences || ![...event.monitorIds].some((id) => pageMonitorIds(page.monitors).has(id))) continue;
        const audience = await eventAudience(this.store, this.audiences, page.id, now);
        if (!audience) continue;
        const stored = await this.render(snapshot, page, event);
        if (!stored) continue;
        const { hook: _hook, ...mailOnly } = stored;
        queued += await this.store.recordEvent(page.id, event.key, JSON.stringify(mailOnly), event.monitorIds, now, ['email'], audience);
      }
    }
    // A component's status change: Statuspage's component_update, for webhook subscribers only.
    for (const change of changes) {
      for (const page of pages) {
        if (!pageMonitorIds(page.monitors).has(change.monitor.id)) continue;
        const address = pageAddress(page, this.links);
        const hook = componentPayload({ page, monitors: snapshot.monitors, incidents: snapshot.incidents, address }, change);
        const stored: StoredEvent = { defaultLocale: pageLanguage(this.languages, page.slug).locale, mails: {}, hook, manageBase: subscribeUrls(address).manageBase };
        queued += await this.store.recordEvent(page.id, change.key, JSON.stringify(stored), change.monitorIds, now, ['webhook']);
      }
    }
    // Saved once the events are recorded: a crash before this finds them again on the next start,
    // and the store keeps each event's key once, so nothing is mailed twice.
    await this.store.writeFeedBaseline(encodeBaseline(snapshot, now));
    // Only now: a take that failed half-way (the store unreachable) leaves the comparison where it
    // was, so the next snapshot finds the same events again (each recorded once by its key).
    this.previous = snapshot;
    return { events: events.length + changes.length, queued, removed };
  }

  /** The event's mail in the page's default language and in each one its subscribers read; null when the page shows none of it. */
  private async render(snapshot: Snapshot, page: StatusPage, event: SiteEvent): Promise<StoredEvent | null> {
    const language = pageLanguage(this.languages, page.slug);
    const address = pageAddress(page, this.links, { mainHostOnly: page.isPublic === false });
    const manageBase = subscribeUrls(address).manageBase;
    // A subscriber who confirms, in a language no one else reads, between this read and the
    // event's recording gets this event in the page's default language (see storedMailFor).
    const locales = new Set([language.locale, ...(await this.store.subscriberLocales(page.id)).map((stored) => chooseLocale(language, stored))]);
    const mails: StoredEvent['mails'] = {};
    for (const locale of locales) {
      const localized = { origin: address.origin, basePath: localeBasePath(address.basePath, language, locale) };
      const mail = eventMail(snapshot, page, event, localized, translator(locale, language.timeZone));
      if (!mail) return null;
      mails[locale] = { ...mail, manageBase };
    }
    const hook = eventPayload({ page, monitors: snapshot.monitors, incidents: snapshot.incidents, address }, event);
    return { defaultLocale: language.locale, mails, manageBase, ...(hook && { hook }) };
  }
}

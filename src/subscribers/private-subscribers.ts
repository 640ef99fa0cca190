/**
 * Subscribers of a page with an audience (docs/private-pages.md, "Subscriptions"): each subscribed
 * as a viewer whose grant was live then, and an event of the page is queued only for those whose
 * grant is live when the event is recorded (the outbox row is built). Checked then, not at send
 * time: the mail is rendered and its rows written in one transaction when the event is found, so
 * what it carries is what the page showed its audience at that moment; a grant ended between that
 * and the send (seconds, or a retry) lets that one mail go, and every later event mails nobody.
 * Checking at each send would need the audiences store inside the sender's claim loop, on every
 * retry, for every mail of every page.
 */
import type { EventAudience, SubscriberStore } from './store.ts';

/** What the subscriptions thread asks of the audiences store (src/audiences/store.ts). */
export interface AudienceCheck {
  /** Whether the page has an audience (settings in the audiences store). */
  hasAudience(pageId: string): Promise<boolean>;
  /** Those of `viewerIds` whose grant to the page is live at `now`. */
  liveViewers(pageId: string, viewerIds: readonly string[], now: number): Promise<ReadonlySet<string>>;
}

/** The audience an event of a non-public page is queued for, or null when the page has none (then it is mailed to no one). */
export async function eventAudience(store: SubscriberStore, check: AudienceCheck, pageId: string, now: number): Promise<EventAudience | null> {
  if (!(await check.hasAudience(pageId))) return null;
  return { viewers: await check.liveViewers(pageId, await store.subscribedViewers(pageId), now) };
}

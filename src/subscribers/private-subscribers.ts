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
import { existsSync } from 'node:fs';
import { AudienceStore } from '../audiences/store.ts';
import { cookieValue, viewerCookieName, VIEWER_SESSION_POLICY } from '../audiences/gated-routes.ts';
import { openAuthDatabase, SessionStore } from '../auth/session-store.ts';
import { cookieMustBeSecure, isLoopbackAddress } from '../auth/session-cookie.ts';
import type { StoreLocation } from '../store/location.ts';
import type { Database } from '../store/database.ts';
import type { ViewerGate } from './routes.ts';
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

/** Where the audiences live: the audiences store and the sign-in store (viewers' sessions). */
export interface AudienceLocations {
  audiences: StoreLocation;
  auth: StoreLocation;
}

export interface AudienceSide {
  check: AudienceCheck;
  gate: ViewerGate;
  close(): Promise<void>;
}

/**
 * The audiences as the subscriptions thread reads them: opened on first need, once the store
 * exists (the first `page-access` command makes it); until then no page has an audience, and a
 * store that cannot open is tried again on the next need (the caller logs the failure).
 */
export function audienceSide(locations: AudienceLocations, links: { origin: string }): AudienceSide {
  let opening: Promise<{ audiences: AudienceStore; sessions: SessionStore; authDb: Database }> | null = null;
  const exists = () => locations.audiences.dialect === 'postgres' || existsSync(locations.audiences.path);
  async function open() {
    const audiences = await AudienceStore.open(locations.audiences);
    try {
      const authDb = await openAuthDatabase(locations.auth);
      return { audiences, authDb, sessions: new SessionStore(authDb, VIEWER_SESSION_POLICY) };
    } catch (error) {
      await audiences.close();
      throw error;
    }
  }
  function stores() {
    if (opening) return opening;
    if (!exists()) return null;
    opening = open();
    opening.catch(() => (opening = null));
    return opening;
  }
  return {
    check: {
      hasAudience: async (pageId) => ((await stores()?.then((s) => s.audiences.access(pageId))) ?? null) !== null,
      liveViewers: async (pageId, viewerIds, now) => (await stores()?.then((s) => s.audiences.liveViewers(pageId, viewerIds, now))) ?? new Set<string>(),
    },
    gate: {
      async viewerFor(pageId, cookie, client, now) {
        const open = stores();
        if (!open) return null;
        const { audiences, sessions } = await open;
        // The name the site gives the cookie (auth/session-cookie.ts): `__Host-` unless plain HTTP from loopback.
        const secure = cookieMustBeSecure({ https: links.origin.startsWith('https:'), loopback: isLoopbackAddress(client) });
        const token = cookieValue(cookie, viewerCookieName(secure));
        const session = token ? await sessions.lookup(token, now) : null;
        if (!session || session.subject.kind !== 'viewer') return null;
        return (await audiences.grantOf(session.subject.id, pageId, now)) ? session.subject.id : null;
      },
      granted: async (viewerId, pageId, now) => ((await stores()?.then((s) => s.audiences.grantOf(viewerId, pageId, now))) ?? null) !== null,
    },
    async close() {
      const open = opening;
      opening = null;
      if (!open) return;
      const stores = await open.catch(() => null);
      await stores?.audiences.close();
      await stores?.authDb.close();
    },
  };
}

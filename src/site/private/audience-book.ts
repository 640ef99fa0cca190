/**
 * The site's view of the audiences (docs/private-pages.md): the stores (opened once the
 * audiences store exists: `npx porchlight page-access` creates it), the settings of every page
 * with an audience, re-read every few seconds (the CLI writes from another process), and the
 * pages of the latest snapshot. Tells the front which paths are gated after each change.
 */
import { existsSync } from 'node:fs';
import type { StatusPage } from '../../contract/index.ts';
import type { Database } from '../../store/database.ts';
import { AudienceStore, type PageAccess } from '../../audiences/store.ts';
import { announceGatedRoutes, VIEWER_SESSION_POLICY, type GatedRoute } from '../../audiences/gated-routes.ts';
import { openAuthDatabase, SessionStore } from '../../auth/session-store.ts';
import { SignInThrottle } from '../../auth/throttle.ts';
import { createLogger, reasonOf } from '../../logging/logger.ts';
import { onPagesLoaded } from '../data/loaded-pages.ts';
import { siteConfig, type AudienceLocations } from '../running-config.ts';

/** How often the settings are read again: a change made with the CLI shows within this. */
const RELOAD_MS = 2_000;

/** Viewers' sessions: unused for 2 hours or 12 hours old, they end. */
export { VIEWER_SESSION_POLICY };

export interface AudienceStores {
  audiences: AudienceStore;
  sessions: SessionStore;
  throttle: SignInThrottle;
}

/** A non-public page with an audience, and its settings. */
export interface GatedPage {
  page: StatusPage;
  access: PageAccess;
}

export interface AudienceBook {
  /** The gated page of this slug, or null (public, unknown, or non-public without an audience). */
  bySlug(slug: string): GatedPage | null;
  byId(pageId: string): GatedPage | null;
  /** The stores, or null while no audiences store exists. */
  stores(): Promise<AudienceStores | null>;
  /** Reads the audiences now (not at the next tick): for a link that names a page set up a moment ago. */
  reload(): Promise<void>;
}

function gatedRoutes(pages: readonly StatusPage[], access: ReadonlyMap<string, PageAccess>): GatedRoute[] {
  return pages.flatMap((page) => {
    const settings = page.isPublic === false ? access.get(page.id) : undefined;
    return settings ? [{ slug: page.slug, mode: settings.mode, cidrs: settings.cidrs }] : [];
  });
}

export function createAudienceBook(locations: AudienceLocations): AudienceBook {
  const log = createLogger('audiences');
  let pages: readonly StatusPage[] = [];
  let access: ReadonlyMap<string, PageAccess> = new Map();
  let opening: Promise<AudienceStores> | null = null;
  let announced = '';

  const exists = () => locations.audiences.dialect === 'postgres' || existsSync(locations.audiences.path);
  async function open(): Promise<AudienceStores> {
    const audiences = await AudienceStore.open(locations.audiences);
    let authDb: Database;
    try {
      authDb = await openAuthDatabase(locations.auth);
    } catch (error) {
      await audiences.close();
      throw error;
    }
    return { audiences, sessions: new SessionStore(authDb, VIEWER_SESSION_POLICY), throttle: new SignInThrottle(authDb) };
  }
  function stores(): Promise<AudienceStores | null> {
    if (opening) return opening;
    if (!exists()) return Promise.resolve(null);
    opening = open();
    // A store that cannot open is tried again on the next reload, and said once per failure.
    opening.catch((error: unknown) => {
      opening = null;
      log.warn({ event: 'audiences-open', reason: reasonOf(error) }, `the audiences store cannot be opened (${reasonOf(error)}); pages with an audience stay 404 for everyone`);
    });
    return opening;
  }

  function announce(): void {
    const routes = gatedRoutes(pages, access);
    const text = JSON.stringify(routes);
    if (text === announced) return;
    announced = text;
    announceGatedRoutes(routes);
  }

  async function reload(): Promise<void> {
    const opened = await stores().catch(() => null);
    if (!opened) return;
    access = new Map((await opened.audiences.allAccess()).map((settings) => [settings.pageId, settings]));
    announce();
  }

  onPagesLoaded((loaded) => {
    pages = loaded;
    announce();
  });
  const tick = () => void reload().catch((error: unknown) => log.warn({ event: 'audiences-reload', reason: reasonOf(error) }, `could not read the audiences (${reasonOf(error)})`));
  tick();
  setInterval(tick, RELOAD_MS).unref();

  const gated = (page: StatusPage | undefined): GatedPage | null => {
    const settings = page && page.isPublic === false ? access.get(page.id) : undefined;
    return page && settings ? { page, access: settings } : null;
  };
  return {
    bySlug: (slug) => gated(pages.find((page) => page.slug === slug)),
    byId: (pageId) => gated(pages.find((page) => page.id === pageId)),
    stores,
    reload,
  };
}

let instance: AudienceBook | null | undefined;

/** The site's one book, or null when this site keeps no audiences (the static export). */
export function audienceBook(): AudienceBook | null {
  if (instance === undefined) {
    const locations = siteConfig().audiences;
    instance = locations ? createAudienceBook(locations) : null;
  }
  return instance;
}

/**
 * The configuration the running site is handed: plain, already checked data. The launcher (or
 * the exporter) parses the environment once (config.ts, on a thread of its own), adds what it
 * learns at start (the API's address and key, whether subscriptions run) and passes the result
 * to the site's thread, whose entry provides it here before the site's handler runs; pages then
 * read `siteConfig()`. No zod here: the serving thread builds this too.
 */
import type { LanguageSettings } from './i18n/settings.ts';
import type { SiteEnv, ThemeName } from './config.ts';
import type { StoreLocation } from '../store/location.ts';

export interface SiteConfig {
  apiUrl: string;
  apiKey: string;
  theme: ThemeName;
  apiTimeoutSeconds: number;
  freshSeconds: number;
  /** With push working, how often the data is polled anyway (the safety net; never below freshSeconds). */
  pushPollSeconds: number;
  maxStaleSeconds: number;
  backfillPages: number;
  /** Folder of the uptime aggregates that survive a restart; ':memory:' keeps them in memory only. */
  cacheDir: string;
  /**
   * Origin of the main host as visitors reach it (e.g. https://status.example.com), for the
   * absolute links feeds, JSON and snippets need; null: taken from each request.
   */
  publicUrl: string | null;
  /** Languages and time zones of the pages (i18n/settings.ts). */
  languages: LanguageSettings;
  /** Fonts the status card falls back to after DejaVu, for the scripts DejaVu lacks. */
  cardFontFiles: readonly string[];
  /** Whether pages show the e-mail subscription form. */
  subscriptions: boolean;
  /** Null: the form posts to the page's own `subscribe` route; else to the page's route there (static export). */
  subscribeFormOrigin: string | null;
  /** The push fan-out between replicas sharing DATABASE_URL (server/fanout/); null without it. */
  fanout: FanoutSettings | null;
  /** Where the audiences of non-public pages and their viewers' sessions are kept (docs/private-pages.md); null: no page has one (the static export). */
  audiences: AudienceLocations | null;
}

export interface AudienceLocations {
  /** The audiences store (AUDIENCES_DB, or the schema `audiences`). */
  audiences: StoreLocation;
  /** The sign-in store of sessions and the throttle (src/auth/location.ts). */
  auth: StoreLocation;
}

/** What the push fan-out needs (DATABASE_URL is never logged: it may carry a password). */
export interface FanoutSettings {
  databaseUrl: string;
  /** How often the data version is read (the safety net under LISTEN). */
  versionPollSeconds: number;
}

/** The safety net's pace: a missed notification is caught within this (and a grace of up to 5 s). */
export const FANOUT_VERSION_POLL_SECONDS = 10;

/** What is known only once Porchlight runs, not from the environment alone. */
export interface SiteRunFacts {
  api: { url: string; key: string };
  subscriptions: boolean;
  subscribeFormOrigin: string | null;
  /** DATABASE_URL, when set: the push fan-out runs (never for the static export). */
  databaseUrl?: string | null;
  audiences: AudienceLocations | null;
}

/** The site's configuration from the parsed settings (`languages`: config.ts's languageSettings) and the run's facts. */
export function siteConfigOf(env: SiteEnv, languages: LanguageSettings, run: SiteRunFacts): SiteConfig {
  return {
    apiUrl: run.api.url,
    apiKey: run.api.key,
    theme: env.SITE_THEME,
    apiTimeoutSeconds: env.API_TIMEOUT_SECONDS,
    freshSeconds: env.CACHE_FRESH_SECONDS,
    pushPollSeconds: env.PUSH_POLL_SECONDS,
    maxStaleSeconds: env.CACHE_MAX_STALE_SECONDS,
    backfillPages: env.HISTORY_BACKFILL_PAGES,
    cacheDir: env.CACHE_DIR,
    publicUrl: env.SITE_PUBLIC_URL ?? null,
    languages,
    cardFontFiles: env.CARD_FONT_FILES ?? [],
    subscriptions: run.subscriptions,
    subscribeFormOrigin: run.subscribeFormOrigin,
    fanout: run.databaseUrl ? { databaseUrl: run.databaseUrl, versionPollSeconds: FANOUT_VERSION_POLL_SECONDS } : null,
    audiences: run.audiences,
  };
}

/**
 * Kept on globalThis, not in a module variable: the built site (dist/server/) carries its own
 * copy of this module, apart from the copy the thread's entry imports.
 */
const SLOT = Symbol.for('porchlight.site-config');
type Slot = { [SLOT]?: SiteConfig };

/** Called once by the site's thread (server/threads/site-worker.ts) before the site's handler loads. */
export function provideSiteConfig(config: SiteConfig): void {
  (globalThis as Slot)[SLOT] = config;
}

export class SiteConfigMissingError extends Error {
  override name = 'SiteConfigMissingError';
  constructor() {
    super('the site was started without its configuration: start it with `npm start` (`astro dev` needs STATUS_API_URL and STATUS_API_KEY)');
  }
}

/** The running site's configuration. */
export function siteConfig(): SiteConfig {
  const config = (globalThis as Slot)[SLOT];
  if (!config) throw new SiteConfigMissingError();
  return config;
}

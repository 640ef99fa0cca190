/**
 * Starts the operators' console on the front's thread: its two stores (the sign-in store,
 * src/auth/, and the console's, src/console/store.ts), the typed API client holding the key (it
 * never leaves this process), and the handler the front answers /_porchlight/console/ with.
 */
import { createClient } from '../api/index.ts';
import { authLocation } from '../auth/location.ts';
import { openAuthDatabase, SessionStore } from '../auth/session-store.ts';
import { SignInThrottle } from '../auth/throttle.ts';
import { createConsole, type ConsoleHandler, type ConsoleOptions } from '../console/handler.ts';
import { ConsoleStore, consoleLocation } from '../console/store.ts';
import { createLogger } from '../logging/logger.ts';
import { existsSync } from 'node:fs';
import { storeLocation } from '../store/location.ts';
import { SubscriberStore } from '../subscribers/store.ts';
import { AudienceStore } from '../audiences/store.ts';
import { clientAddressResolver } from '../audiences/client-address.ts';
import type { LauncherConfig } from './config.ts';

export interface RunningConsole {
  handler: ConsoleHandler;
  /** The port the site listens on, once known (loopback names when SITE_PUBLIC_URL is unset). */
  listening(port: number): void;
  /** The demo: a set-up link for its admin while no operator has a password, else null. */
  firstSignInLink(consoleUrl: string): Promise<string | null>;
  close(): Promise<void>;
}

export const DEMO_ADMIN = 'admin@demo.porchlight.invalid';

export async function startConsole(config: LauncherConfig, api: { apiUrl: string; apiKey: string; previewOrigin?: string }): Promise<RunningConsole> {
  const { DATABASE_URL, SUBSCRIBERS_DB, CONSOLE_ALLOW_HTTP, TEMPLATES_DIR } = config.launcher;
  const authDb = await openAuthDatabase(authLocation(DATABASE_URL, SUBSCRIBERS_DB));
  const store = await ConsoleStore.open(consoleLocation(DATABASE_URL, SUBSCRIBERS_DB)).catch(async (error: unknown) => {
    await authDb.close();
    throw error;
  });
  const log = createLogger('console');
  const client = createClient({ baseUrl: api.apiUrl, apiKey: api.apiKey, maxRetries: 0, timeouts: { totalMs: 15_000 }, logger: { warn: (line) => log.warn(line) } });
  // The subscribers' store, opened on first use as `npx porchlight subscribers` opens it (a SQLite
  // file that does not exist yet is not created: no one has subscribed).
  let subscribers: Promise<SubscriberStore | null> | null = null;
  const openSubscribers = () => {
    subscribers ??= !DATABASE_URL && (SUBSCRIBERS_DB === ':memory:' || !existsSync(SUBSCRIBERS_DB)) ? Promise.resolve(null) : SubscriberStore.open(storeLocation(DATABASE_URL, SUBSCRIBERS_DB));
    subscribers.catch(() => {
      subscribers = null;
    });
    return subscribers;
  };
  // The audiences store, opened (and made, as `npx porchlight page-access` makes it) on first use
  // of the page access screen; the site on every replica re-reads it within 2 s.
  let audiences: Promise<AudienceStore | null> | null = null;
  const openAudiences = () => {
    audiences ??= AudienceStore.open(storeLocation(DATABASE_URL, config.launcher.AUDIENCES_DB)).catch((error: unknown) => {
      log.warn(`console: the audiences store cannot be opened (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      audiences = null;
      return null;
    });
    return audiences;
  };
  const options: ConsoleOptions = {
    subscribers: openSubscribers,
    audiences: openAudiences,
    publicUrl: config.site.SITE_PUBLIC_URL ? new URL(config.site.SITE_PUBLIC_URL) : null,
    port: config.launcher.PORT,
    allowHttp: CONSOLE_ALLOW_HTTP,
    store,
    sessions: new SessionStore(authDb),
    throttle: new SignInThrottle(authDb),
    client,
    siteLocale: config.languages.siteLocale,
    siteTimeZone: config.languages.siteTimeZone,
    templatesDir: TEMPLATES_DIR,
    log: (line) => log.warn(line),
    clientAddress: clientAddressResolver(config.launcher.TRUSTED_PROXIES),
    previewOrigin: api.previewOrigin ?? null,
  };
  // Ended sessions and quiet throttle counts are deleted hourly (a day after they ended), so the tables stay small.
  const sweep = setInterval(() => {
    const now = Date.now();
    void options.sessions.purge(now - 86_400_000).then(() => options.throttle.purge(now)).catch((error: unknown) => log.warn(`console: purging old sessions failed (${error instanceof Error ? error.message : String(error)})`));
  }, 3_600_000);
  sweep.unref();
  return {
    handler: createConsole(options),
    listening(port) {
      options.port = port;
    },
    async firstSignInLink(consoleUrl) {
      const operators = await store.operators();
      if (operators.some((operator) => operator.hasPassword)) return null;
      const token = operators.some((operator) => operator.email === DEMO_ADMIN) ? await store.renewSetup(DEMO_ADMIN, Date.now()) : (await store.addOperator(DEMO_ADMIN, 'admin', Date.now())).setupToken;
      return token ? `${consoleUrl}setup?t=${token}` : null;
    },
    async close() {
      clearInterval(sweep);
      await client.close().catch(() => undefined);
      await store.close();
      await (await subscribers?.catch(() => null))?.close();
      await (await audiences?.catch(() => null))?.close();
      await authDb.close();
    },
  };
}

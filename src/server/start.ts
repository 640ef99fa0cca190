/**
 * Composes Porchlight: the site, and the embedded API service when no external API is
 * configured. The two meet only over HTTP; the site is handed the API's URL and key with the
 * rest of its configuration, as data (site/running-config.ts), exactly as it would be for the
 * hosted service. Around them: the push route and channel, metrics on their own port, and a
 * graceful close. Nothing here writes process.env: each thread gets what it needs as data.
 */
import type { Server } from 'node:http';
import http from '../api/node-http.ts';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { DemoInfo, ServiceOptions } from '../service/index.ts';
import { ConfigError } from '../site/config-error.ts';
import { signalPush } from '../site/data/push-signal.ts';
import { createLogger, reasonOf, type Logger } from '../logging/logger.ts';
import type { LauncherConfig } from './config.ts';
import { SiteNotBuiltError } from './site-handler.ts';
import { ThreadStartError, type StartedThread } from './threads/worker-thread.ts';
import { PORCHLIGHT_THREADS, startPorchlightThread, type ThreadOutput } from './threads/porchlight-threads.ts';
import { lowerThreadPriority } from './threads/thread-priority.ts';
import { createFrontHandler } from './front/front-server.ts';
import { createPublicServer } from './front/public-server.ts';
import { drain } from './drain.ts';
import { createPushReceiver } from './push/push-receiver.ts';
import { createTlsGate } from './front/tls-gate.ts';
import { createPrivateRelay } from './front/private-relay.ts';
import { clientAddressResolver } from '../audiences/client-address.ts';
import { viewerCookieName } from '../audiences/gated-routes.ts';
import { storeLocation } from '../store/location.ts';
import { authLocation } from '../auth/location.ts';
import { loopbackOrigin, planPush, pushUrl, type PushPlan } from './push/push-setup.ts';
import type { KeepPushChannelMessage } from './push/push-keeper.ts';
import { pushToken } from './push/push-token.ts';
import { removeLocalConnection, writeLocalConnection } from './local-connection.ts';
import { createSubscriptionRelay, type SubscriptionRelay } from './front/subscription-relay.ts';
import { planSubscriptions, type SubscriptionPlan } from './subscriptions/plan.ts';
import type { SubscriptionsWorkerData } from './threads/subscriptions-worker.ts';
import type { SiteThreadReady, SiteWorkerData } from './threads/site-worker.ts';
import { siteConfigOf, type SiteConfig } from '../site/running-config.ts';
import type { RunningConsole } from './console-setup.ts';

/** How long requests in flight get to finish on shutdown. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningPorchlight {
  siteUrl: string;
  apiUrl: string;
  /** Where Prometheus scrapes, or null when METRICS_PORT is unset. */
  metricsUrl: string | null;
  push: PushPlan;
  /** E-mail subscriptions: off, on with SMTP, or the demo's local mailbox (its folder). */
  subscriptions: { mode: SubscriptionPlan['mode']; mailFolder: string | null };
  embedded: EmbeddedService | null;
  demo: DemoInfo | null;
  /** The operators' console, when on: its address and, for the demo, a first sign-in link. */
  console: { url: string; firstSignInLink: string | null } | null;
  /** Stops accepting, finishes requests in flight (bounded), then stops everything else. */
  close(): Promise<void>;
}

/** The embedded API as the launcher sees it: it runs on a thread of its own. */
interface EmbeddedService {
  url: string;
  demo: DemoInfo | null;
  setSiteUrl(siteUrl: string): void;
  /** Stops the monitoring engine and deliveries, then closes the store. */
  close(): Promise<void>;
}

async function startEmbeddedService(config: LauncherConfig, threads: ThreadOutput): Promise<EmbeddedService> {
  const { DATABASE_PATH, DATABASE_URL, API_PORT, SEED_DEMO } = config.launcher;
  if (!DATABASE_URL && DATABASE_PATH !== ':memory:') mkdirSync(dirname(DATABASE_PATH), { recursive: true });
  // Loaded only when used: a site pointed at an external API carries none of the service's code.
  const { readEngineConfig, readLimitsConfig } = await import('../service/config.ts');
  const options: ServiceOptions = {
    databasePath: DATABASE_PATH,
    // DATABASE_URL: the embedded API's store is on PostgreSQL (schema `service`), as the subscribers' is.
    databaseUrl: DATABASE_URL ?? null,
    host: '127.0.0.1',
    port: API_PORT,
    seedDemo: SEED_DEMO,
    ...readLimitsConfig(process.env),
    ...readEngineConfig(process.env),
  };
  const thread = await startPorchlightThread<{ url: string; demo: DemoInfo | null }>('api', options, threads);
  exitWhenLost(thread, 'the embedded API');
  return {
    url: thread.ready.url,
    demo: thread.ready.demo,
    setSiteUrl: (siteUrl) => thread.post({ type: 'site-url', url: siteUrl }),
    close: () => thread.close(),
  };
}

/**
 * A thread that dies on its own leaves the site unable to render or refresh: say so in one line
 * and exit, so the service manager starts a clean process (crash-only; nothing half-alive).
 */
function exitWhenLost(thread: StartedThread<unknown>, what: string): void {
  thread.onUnexpectedExit((code) => {
    createLogger('launcher').fatal({ event: 'thread-exit', code }, `${what} stopped unexpectedly (exit code ${code}); exiting`);
    process.exit(1);
  });
}

/** Where the site finds its API: the configured one, or the embedded service started here. */
export async function resolveApi(config: LauncherConfig, threads: ThreadOutput = {}): Promise<{ url: string; key: string; embedded: EmbeddedService | null }> {
  const { STATUS_API_URL: url, STATUS_API_KEY: key } = config.site;
  if (url && key) return { url, key, embedded: null };
  const embedded = await startEmbeddedService(config, threads);
  const embeddedKey = key ?? embedded.demo?.apiKey;
  if (!embeddedKey) {
    await embedded.close();
    throw new ConfigError('STATUS_API_KEY is required: the embedded store has no demo organization (SEED_DEMO=false)');
  }
  return { url: embedded.url, key: embeddedKey, embedded };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** The Astro site on a thread of its own, on an internal loopback port; only the front server talks to it. */
export async function startSiteThread(config: SiteConfig, threads: ThreadOutput = {}): Promise<{ origin: string; sharedPushToken: string | null; post(message: KeepPushChannelMessage): void; close(): Promise<void> }> {
  const data: SiteWorkerData = { config };
  const thread = await startPorchlightThread<SiteThreadReady>('site', data, threads).catch((error: unknown) => {
    throw error instanceof ThreadStartError && error.causeName === 'SiteNotBuiltError' ? new SiteNotBuiltError() : error;
  });
  exitWhenLost(thread, 'the site renderer');
  return { origin: thread.ready.origin, sharedPushToken: thread.ready.sharedPushToken ?? null, post: (message) => thread.post(message), close: () => thread.close() };
}

interface SubscriptionsThread {
  relay: SubscriptionRelay;
  mailFolder: string | null;
  setLinkOrigin(origin: string): void;
  close(): Promise<void>;
}

const BACKGROUND_NICENESS = 10;

/** The subscriptions' thread, started before the site's so that it hears the site's first load. */
async function startSubscriptionsThread(plan: SubscriptionPlan, config: LauncherConfig): Promise<SubscriptionsThread | null> {
  if (plan.mode === 'off') return null;
  const data: SubscriptionsWorkerData = {
    databasePath: config.launcher.SUBSCRIBERS_DB,
    databaseUrl: config.launcher.DATABASE_URL ?? null,
    smtp: plan.mode === 'smtp' ? plan.smtp : null,
    demoMailDir: plan.mode === 'demo' ? plan.mailDir : null,
    maxPerSecond: config.launcher.SUBSCRIPTION_MAILS_PER_SECOND,
    monitorDown: config.launcher.SUBSCRIPTION_MONITOR_DOWN,
    webhookAllowPrivate: config.launcher.SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE,
    languages: config.languages,
    // The same stores the site's private pages read (docs/private-pages.md, "Subscriptions").
    audiences: { audiences: storeLocation(config.launcher.DATABASE_URL, config.launcher.AUDIENCES_DB), auth: authLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) },
    // The demo's origin is set once the site listens (setLinkOrigin).
    links: plan.mode === 'smtp' ? { origin: plan.publicUrl, configured: true } : { origin: 'http://127.0.0.1', configured: false },
  };
  const thread = await startPorchlightThread<{ origin: string; mailFolder: string | null }>('subscriptions', data);
  exitWhenLost(thread, 'the e-mail subscriptions');
  // Mails can wait a moment; visitors should not (see threads/thread-priority.ts).
  lowerThreadPriority(PORCHLIGHT_THREADS.subscriptions.name, BACKGROUND_NICENESS);
  const relay = createSubscriptionRelay(thread.ready.origin);
  return {
    relay,
    mailFolder: thread.ready.mailFolder,
    setLinkOrigin: (origin) => thread.post({ type: 'link-origin', origin }),
    close: async () => {
      await relay.close();
      await thread.close();
    },
  };
}

/** Asks the site whether it is ready, which also starts its first load (restoring the saved snapshot). */
function warmUp(origin: string, log: Logger): void {
  const request = http.get(`${origin}/readyz`, { headers: { host: '127.0.0.1' } }, (response) => response.resume());
  request.on('error', (error) => log.warn({ reason: reasonOf(error) }, `site warm-up failed (${reasonOf(error)})`));
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host);

export async function startPorchlight(config: LauncherConfig, log: Logger): Promise<RunningPorchlight> {
  const subscriptionPlan = planSubscriptions(config, process.env);
  // First: a subscribers' store that cannot open (PostgreSQL unreachable or older than 15, a
  // schema newer than this code) stops start-up before the embedded API writes anything.
  const subscriptions = await startSubscriptionsThread(subscriptionPlan, config);
  const { url: apiUrl, key: apiKey, embedded } = await resolveApi(config).catch(async (error: unknown) => {
    await subscriptions?.close();
    throw error;
  });
  const { HOST, PORT, METRICS_PORT, PAGE_CACHE_SECONDS, PUSH_UPDATES, PUSH_TOKEN } = config.launcher;

  const plan = planPush({ enabled: PUSH_UPDATES, embedded: embedded !== null, publicUrl: config.site.SITE_PUBLIC_URL ?? null, shared: config.launcher.DATABASE_URL !== undefined });
  const frontLog = createLogger('front');

  // The site shows the form, and tells its snapshots, only when subscriptions run. With
  // DATABASE_URL it fans pushes out to the other replicas, and knows the push token they share.
  const site = await startSiteThread(
    siteConfigOf(config.site, config.languages, { api: { url: apiUrl, key: apiKey }, subscriptions: subscriptions !== null, subscribeFormOrigin: null, databaseUrl: config.launcher.DATABASE_URL ?? null, audiences: { audiences: storeLocation(config.launcher.DATABASE_URL, config.launcher.AUDIENCES_DB), auth: authLocation(config.launcher.DATABASE_URL, config.launcher.SUBSCRIBERS_DB) } }),
  );
  // Every replica must accept the same token (the API posts to whichever the balancer picks):
  // PUSH_TOKEN, else the one kept in PostgreSQL, else (one process) the one kept in CACHE_DIR.
  const token = plan.on ? (PUSH_TOKEN ?? site.sharedPushToken ?? (await pushToken(undefined, config.site.CACHE_DIR))) : null;
  const pushLog = createLogger('push');
  const receiver = createPushReceiver({
    token,
    onPush: (kind) => {
      pushLog.info({ event: 'push', kind }, `push received${kind ? ` (${kind})` : ''}: refreshing the data`);
      signalPush(kind);
    },
  });
  const tlsGate = createTlsGate({
    publicHostName: config.site.SITE_PUBLIC_URL ? new URL(config.site.SITE_PUBLIC_URL).hostname : null,
  });
  // The console: off unless CONSOLE=true, on for the embedded demo (src/console/).
  const consoleOn = config.launcher.CONSOLE ?? (embedded?.demo != null);
  // Loaded only when on: the console's code (the API client's schemas, the catalogs) never weighs on a site without it.
  const operatorsConsole: RunningConsole | null = consoleOn ? await (await import('./console-setup.ts')).startConsole(config, { apiUrl, apiKey, previewOrigin: site.origin }) : null;
  let front: ReturnType<typeof createFrontHandler> | null = null;
  let rejected = 0;
  // prom-client and its collectors load only when metrics are asked for: ~4.5 MiB of heap (measured).
  const metricsModule = METRICS_PORT === undefined ? null : await import('./metrics.ts');
  const metrics = metricsModule === null
    ? null
    : metricsModule.createMetrics({ apiOrigin: new URL(apiUrl).origin, front: () => front?.counts ?? null, push: () => receiver.counts, tlsGate: () => tlsGate.counts, rejected: () => rejected });
  front = createFrontHandler({
    upstream: site.origin,
    freshMs: PAGE_CACHE_SECONDS * 1000,
    maxStaleMs: config.site.CACHE_MAX_STALE_SECONDS * 1000,
    maxEntries: 2_000,
    maxBytes: 64 * 1024 * 1024,
    push: receiver,
    ...(subscriptions ? { subscriptions: subscriptions.relay } : {}),
    tlsGate,
    private: createPrivateRelay({
      upstream: site.origin,
      clientAddress: clientAddressResolver(config.launcher.TRUSTED_PROXIES),
      cookieNames: [viewerCookieName(true), viewerCookieName(false)],
    }),
    ...(operatorsConsole ? { console: operatorsConsole.handler } : {}),
    ...(config.site.SITE_PUBLIC_URL ? { publicHost: new URL(config.site.SITE_PUBLIC_URL).host } : {}),
    log: (line) => frontLog.warn(line),
    debug: (line) => frontLog.debug(line),
    ...(metrics ? { onRender: metrics.onRender } : {}),
  });
  // Requests Node's parser rejects are counted for the metrics, never logged one by one.
  const server = createPublicServer(front.handle, { onRejected: () => (rejected += 1) });
  await listen(server, PORT, HOST);
  const address = server.address() as AddressInfo;

  let metricsServer: Server | null = null;
  if (metricsModule && metrics) {
    metricsServer = http.createServer(metricsModule.metricsHandler(metrics.registry));
    await listen(metricsServer, METRICS_PORT ?? 0, HOST);
  }
  const metricsUrl = metricsServer ? `http://${urlHost(HOST)}:${(metricsServer.address() as AddressInfo).port}/metrics` : null;

  // The embedded API lets its checks and webhooks reach this very site (the push channel below posts
  // to it) and points the demo's "Website" monitor at its /healthz. Posted before the channel is set
  // up; should the channel's request still come first, its set-up is retried.
  embedded?.setSiteUrl(`${loopbackOrigin(address)}/`);
  if (subscriptionPlan.mode === 'demo') subscriptions?.setLinkOrigin(`http://${urlHost(HOST)}:${address.port}`);
  warmUp(site.origin, frontLog);
  // The site's thread keeps the channel: it has the API client (see push/push-keeper.ts).
  if (plan.on && token) {
    const keep: KeepPushChannelMessage = { type: 'keep-push-channel', name: plan.name, webhookUrl: pushUrl(plan.publicUrl ?? loopbackOrigin(address), token) };
    site.post(keep);
  }

  const siteUrl = `http://${urlHost(HOST)}:${address.port}`;
  operatorsConsole?.listening(address.port);
  const consoleUrl = operatorsConsole ? `${config.site.SITE_PUBLIC_URL ? new URL(config.site.SITE_PUBLIC_URL).origin : siteUrl}/_porchlight/console/` : null;
  const firstSignInLink = operatorsConsole && embedded?.demo && consoleUrl ? await operatorsConsole.firstSignInLink(consoleUrl) : null;
  // The `porchlight` CLI on this machine finds the embedded API here (see local-connection.ts).
  if (embedded) {
    await writeLocalConnection(config.site.CACHE_DIR, { apiUrl, apiKey, siteUrl, pid: process.pid }).catch((error: unknown) => {
      log.warn({ reason: reasonOf(error) }, `could not record the embedded API for the porchlight CLI (${reasonOf(error)})`);
    });
  }

  let closing: Promise<void> | null = null;
  return {
    siteUrl,
    apiUrl,
    metricsUrl,
    push: plan,
    subscriptions: { mode: subscriptions ? subscriptionPlan.mode : 'off', mailFolder: subscriptions?.mailFolder ?? null },
    embedded,
    demo: embedded?.demo ?? null,
    console: consoleUrl ? { url: consoleUrl, firstSignInLink } : null,
    close() {
      closing ??= (async () => {
        const { forced } = await drain(server, SHUTDOWN_GRACE_MS);
        if (forced) log.warn({ event: 'shutdown' }, `requests still running after ${SHUTDOWN_GRACE_MS / 1000} s were cut`);
        if (embedded) await removeLocalConnection(config.site.CACHE_DIR, process.pid);
        await front?.close();
        await operatorsConsole?.close();
        if (metricsServer) await drain(metricsServer, 1_000);
        metrics?.close();
        // The two threads stop side by side; the API's stops its engine and deliveries, then
        // closes its store.
        await Promise.all([site.close(), embedded?.close(), subscriptions?.close()]);
      })();
      return closing;
    },
  };
}

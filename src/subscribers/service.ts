/**
 * E-mail subscriptions, composed: the store, the routes (served on an internal loopback port that
 * only the front server talks to), the event feed that follows the site's snapshots, the outbox
 * sender and the confirmation mails. Runs on a thread of its own (server/threads/
 * subscriptions-worker.ts): the store (SQLite or PostgreSQL) and SMTP never run where visitors are answered or data is
 * refreshed. Logs name pages and counts, never an address.
 */
import http from '../api/node-http.ts';
import type { AddressInfo } from 'node:net';
import type { SmtpSettings } from '../contract/smtp.ts';
import type { StatusPage } from '../contract/index.ts';
import { onSnapshot, type Snapshot, announcer, type Locale, DEFAULT_LANGUAGE_SETTINGS, pageLanguage, type LanguageSettings, translator, subscriptionText, type PreviewResult } from '../site/public.ts';
import { createLogger, reasonOf } from '../logging/logger.ts';
import { EventFeed } from './event-feed.ts';
import { confirmationMail } from './mail-view.ts';
import { smtpTransport, type MailTransport } from './mail-transport.ts';
import { keepLeases } from './outbox-leases.ts';
import { OutboxSender } from './outbox-sender.ts';
import { manageLink, pageAddress, subscribeUrls, type LinkSettings } from './page-address.ts';
import { createRoutes } from './routes.ts';
import { SubscriberStore } from './store.ts';
import type { StoreLocation } from '../store/location.ts';
import { SUBSCRIPTION_STATS_CHANNEL, type SubscriptionStats } from './stats.ts';
import { manageToken } from './tokens.ts';
import { DEFAULT_RETRY_RULES, type RetryRules } from './delivery-policy.ts';
import { EndpointEgress, type Resolver } from './endpoint-egress.ts';
import { deliveryRequest, subscribeEndpoint } from './endpoint-deliveries.ts';
import { EndpointSender } from './endpoint-sender.ts';
import { endpointSender, type EndpointSend } from './endpoint-transport.ts';
import { pausedMail } from './mail-view.ts';
import { chooseLocale } from './subscriber-language.ts';
import { mailPreview } from './mail-preview.ts';
import { audienceSide, type AudienceLocations } from './private-subscribers.ts';


export interface SubscriptionOptions {
  /** The store: a SQLite file's path, where it lives (PostgreSQL with DATABASE_URL), or the store opened already (the service closes it). */
  database: string | StoreLocation | SubscriberStore;
  smtp: SmtpSettings;
  links: LinkSettings;
  concurrency?: number;
  /** Mails per second at most (default 50; 0: no limit). */
  maxPerSecond?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long a page must be missing from the data before its subscribers are deleted. */
  pageGraceMs?: number;
  /** How often the metrics hear the counts (and unconfirmed requests past expiry are deleted). */
  statsIntervalMs?: number;
  /** Also mail a monitor going down with no incident about it (default off). */
  monitorDown?: boolean;
  /** Languages and zones of the pages (SITE_LOCALE, PAGE_LOCALES, …): mails and answers speak the subscriber's. */
  languages?: LanguageSettings;
  /** Test seam: another transport than SMTP. */
  transport?: MailTransport;
  /** Webhook and chat subscriptions (see webhook settings in docs/subscriptions.md). */
  webhooks?: WebhookOptions;
  /** How long a claim of an outbox row holds unless renewed (default 60 s; tests shorten it). Used when the service opens the store. */
  leaseMs?: number;
  /** Pages with an audience (docs/private-pages.md): their viewers subscribe, their live grants get the mails. Absent: non-public pages are a missing page's here. */
  audiences?: AudienceLocations | null;
}

export interface WebhookOptions {
  /** SUBSCRIPTION_WEBHOOK_ALLOW_PRIVATE: loopback and private addresses (and http://) allowed. */
  allowPrivate?: boolean;
  /** Per request, connection to last byte (default 10 s). */
  timeoutMs?: number;
  /** Deliveries in flight at most (default 16) and per receiving host (default 2). */
  concurrency?: number;
  perHost?: number;
  retry?: Partial<RetryRules>;
  /** Test seam: DNS. */
  resolver?: Resolver;
}

export interface RunningSubscriptions {
  origin: string;
  /** The theming preview of an event mail (mail-preview.ts) from the latest snapshot the site told. */
  previewMail(request: unknown): PreviewResult;
  close(): Promise<void>;
}

/** Confirmation mails waiting at most; beyond, a request is answered as usual and mails nothing. */
const MAX_WAITING_CONFIRMATIONS = 1_000;

export async function startSubscriptions(options: SubscriptionOptions): Promise<RunningSubscriptions> {
  const log = createLogger('subscriptions');
  const store = options.database instanceof SubscriberStore ? options.database : await SubscriberStore.open(options.database, options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs });
  const concurrency = options.concurrency ?? 4;
  const transport = options.transport ?? smtpTransport(options.smtp, concurrency);
  const messageHost = new URL(options.links.origin).hostname || 'porchlight.invalid';

  const sender = new OutboxSender(store, transport, {
    concurrency,
    retryBaseMs: options.retryBaseMs ?? 5_000,
    retryMaxMs: options.retryMaxMs ?? 30 * 60_000,
    maxAttempts: 60,
    maxPerSecond: options.maxPerSecond ?? 50,
    manageUrl: (base, subscriberId, locale) => manageLink(base, manageToken(store.secret(), subscriberId), locale),
    messageId: (mail) => `<${mail.eventId}.${mail.subscriberId}@${messageHost}>`,
    onRoundFailed: (error, retryInMs) => log.warn({ event: 'outbox-sender', reason: reasonOf(error), retryInMs }, `the outbox could not be read or written (${reasonOf(error)}); trying again in ${Math.round(retryInMs / 100) / 10} s`),
  });
  const languages = options.languages ?? DEFAULT_LANGUAGE_SETTINGS;

  const hooks = options.webhooks ?? {};
  const egress = new EndpointEgress({ allowPrivate: hooks.allowPrivate ?? false, ...(hooks.resolver && { resolver: hooks.resolver }) });
  const timeoutMs = hooks.timeoutMs ?? 10_000;
  const perHost = hooks.perHost ?? 2;
  const dispatcher = egress.agent({ connectTimeoutMs: timeoutMs, connectionsPerOrigin: perHost });
  const post: EndpointSend = endpointSender(dispatcher, timeoutMs, 'Porchlight-Webhooks/1 (+status page subscriptions)');
  const endpoints = new EndpointSender(store, post, {
    concurrency: hooks.concurrency ?? 16,
    perHost,
    retry: { ...DEFAULT_RETRY_RULES, ...hooks.retry },
    build: (due) => deliveryRequest(store, due, Date.now()),
    paused: (due) => {
      log.warn({ event: 'webhook-paused', host: due.host }, `deliveries to ${due.host} failed for too long; the subscription is paused`);
      const page = latest?.pages.find((candidate) => candidate.id === due.pageId);
      if (!due.contactEmail || !page) return;
      const locale = chooseLocale(pageLanguage(languages, page.slug), due.locale);
      void transport.send({ to: due.contactEmail, mail: pausedMail(page.name, due.host, subscriptionText(translator(locale))) });
    },
  });
  // Claims of a process that died (this one before a restart, or another replica) are settled
  // once their lease is over; live claims of other processes are never touched.
  const leases = keepLeases(store, {
    held: () => [...sender.heldClaims(), ...endpoints.heldClaims()],
    onReclaimed: ({ requeued, inDoubt }) => {
      if (inDoubt > 0) log.warn({ event: 'outbox-recovery', mails: inDoubt }, `${inDoubt} mails or deliveries were being sent by a process that stopped; they are not sent again`);
      if (requeued > 0) {
        log.info({ event: 'outbox-recovery', requeued }, `${requeued} mails or deliveries claimed by a process that stopped before sending them are sent now`);
        sender.wake();
        endpoints.wake();
      }
    },
    onError: (error) => log.warn({ event: 'outbox-leases', reason: reasonOf(error) }, `outbox leases could not be renewed or settled (${reasonOf(error)})`),
  });
  await leases.ready;
  // The links' origin is read at each request (the demo learns its own once the site listens).
  const audiences = options.audiences ? audienceSide(options.audiences, options.links) : null;
  const feed = await EventFeed.open(store, options.links, languages, { pageGraceMs: options.pageGraceMs ?? 7 * 24 * 3_600_000, monitorDown: options.monitorDown ?? false, audiences: audiences?.check ?? null });

  let latest: Snapshot | null = null;
  /** The snapshot being taken (the feed takes them one at a time); close waits for it. */
  let feeding: Promise<void> = Promise.resolve();
  let closing = false;
  /** A take that failed (the store unreachable) is tried again: no new snapshot may come while the data stays the same. */
  let feedRetry: NodeJS.Timeout | null = null;
  let feedFailures = 0;
  const takeLatest = () => {
    const snapshot = latest;
    if (!snapshot || closing) return;
    if (feedRetry) clearTimeout(feedRetry);
    feedRetry = null;
    feeding = feed.take(snapshot, Date.now()).then(
      (result) => {
        feedFailures = 0;
        if (result.events > 0 || result.removed > 0) log.info({ event: 'subscription-events', events: result.events, queued: result.queued, removed: result.removed }, `${result.events} events, ${result.queued} mails queued`);
        // An event another replica recorded first queued nothing here, but its mails are due:
        // every replica that sees it sends its share (each row claimed by one of them).
        if (result.queued > 0 || result.events > 0) {
          sender.wake();
          endpoints.wake();
        }
      },
      (error: unknown) => {
        feedFailures += 1;
        const retryInMs = Math.min(10_000, 1_000 * 2 ** Math.min(4, feedFailures - 1));
        log.error({ event: 'subscription-events', reason: reasonOf(error), retryInMs }, `events could not be recorded (${reasonOf(error)}); trying again in ${retryInMs / 1000} s`);
        if (closing || latest !== snapshot) return;
        feedRetry = setTimeout(takeLatest, retryInMs);
        feedRetry.unref();
      },
    );
  };
  const stopSnapshots = onSnapshot((kind, snapshot) => {
    if (kind === 'restored') {
      latest ??= snapshot;
      return;
    }
    latest = snapshot;
    takeLatest();
  });

  const confirmations = { sent: 0, failed: 0 };
  let waiting = 0;
  const notSent = (subscriberId: string) =>
    store.confirmationNotSent(subscriberId).catch((error: unknown) => log.warn({ event: 'confirmation', reason: reasonOf(error) }, `a confirmation could not be marked unsent (${reasonOf(error)})`));
  function sendConfirmation(page: StatusPage, subscriberId: string, token: string, email: string, locale: Locale): void {
    if (waiting >= MAX_WAITING_CONFIRMATIONS) {
      void notSent(subscriberId);
      return;
    }
    waiting += 1;
    // A page with an audience lives on the main host only (a custom domain would name it publicly).
    const url = subscribeUrls(pageAddress(page, options.links, { mainHostOnly: page.isPublic === false })).confirm(token, locale);
    const i18n = translator(locale, pageLanguage(languages, page.slug).timeZone);
    transport
      .send({ to: email, mail: confirmationMail(page, url, i18n) })
      .then(async (result) => {
        if (result.outcome === 'sent') {
          confirmations.sent += 1;
          return;
        }
        confirmations.failed += 1;
        log.warn({ event: 'confirmation', outcome: result.outcome, page: page.slug }, 'a confirmation e-mail could not be sent');
        // Not sent: the visitor may ask again at once rather than in an hour.
        await notSent(subscriberId);
      })
      .finally(() => (waiting -= 1));
  }

  const routes = createRoutes({
    store,
    snapshot: () => latest,
    sendConfirmation,
    languages,
    subscribeEndpoint: (page, input) => subscribeEndpoint({ store, egress, send: post }, page, pageAddress(page, options.links), input),
    ...(audiences && { viewers: audiences.gate }),
  });
  const server = http.createServer((request, response) => {
    routes(request, response).catch((error: unknown) => {
      log.error({ event: 'subscription-route', reason: reasonOf(error) }, `subscription request failed (${reasonOf(error)})`);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      response.end('Something went wrong. Please try again later.\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });

  const announceStats = announcer<SubscriptionStats>(SUBSCRIPTION_STATS_CHANNEL);
  let housekeeping: Promise<void> = Promise.resolve();
  const keepHouse = async () => {
    try {
      await store.expirePending(Date.now());
      // Outbox rows done with for longer than the retention (store/outbox-retention.ts), a bounded batch per tick.
      await store.purgeDone(Date.now());
      announceStats({ ...(await store.stats()), sender: { ...sender.counts }, confirmations: { ...confirmations }, webhooks: { ...endpoints.counts }, at: Date.now() });
    } catch (error) {
      log.warn({ event: 'subscription-stats', reason: reasonOf(error) }, `subscription housekeeping failed (${reasonOf(error)})`);
    }
  };
  const tick = setInterval(() => {
    housekeeping = keepHouse();
  }, options.statsIntervalMs ?? 5_000);
  housekeeping = keepHouse();
  tick.unref();
  sender.wake();
  endpoints.wake();

  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    previewMail: (request) => mailPreview(latest, request, { links: options.links, languages }),
    async close() {
      clearInterval(tick);
      closing = true;
      if (feedRetry) clearTimeout(feedRetry);
      stopSnapshots();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sender.close();
      await endpoints.close();
      await leases.stop();
      await dispatcher.close();
      await feeding;
      await housekeeping;
      transport.close();
      await audiences?.close();
      await store.close();
    },
  };
}

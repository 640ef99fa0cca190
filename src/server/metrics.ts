/**
 * Prometheus metrics (prom-client) on their own port, never on the public one. What the site does
 * on its worker thread arrives over thread channels (site/data/thread-channel.ts): refreshes (site/data/refresh-events.ts),
 * API requests (relayed from the site's thread by threads/api-request-relay.ts, filtered here to
 * the API's origin; this thread sends the API nothing), the data version the front cache follows; the front's and the push route's plain counters are
 * read at scrape time, so counting costs nothing per request.
 *
 * The metrics are a table (METRICS below): each row registers one group, measured from one
 * source, and returns what stops it. A new metric is a new row, not a longer function.
 */
import type { RequestListener } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DATA_VERSION_CHANNEL } from '../site/data/data-version.ts';
import { listenOn } from '../site/data/thread-channel.ts';
import { REFRESH_EVENTS, type RefreshEvent } from '../site/data/refresh-events.ts';
import { API_REQUEST_EVENTS, type ApiRequestEvent } from './threads/api-request-relay.ts';
import { threadMemory } from './threads/thread-memory.ts';
import type { FrontCounts } from './front/front-server.ts';
import type { PushCounts } from './push/push-receiver.ts';
import { isSubscriptionStats, SUBSCRIPTION_STATS_CHANNEL, type SubscriptionStats } from '../subscribers/stats.ts';
import type { TlsGateCounts } from './front/tls-gate.ts';
import { FANOUT_STATS_CHANNEL, isFanoutStats, type FanoutStats } from './fanout/fanout-stats.ts';

export interface MetricsSources {
  /** Origin of the API (scheme, host, port): requests to it are counted by status. */
  apiOrigin: string;
  front: () => FrontCounts | null;
  push: () => PushCounts | null;
  /** The on-demand TLS gate's answers (see front/tls-gate.ts). */
  tlsGate?: () => TlsGateCounts | null;
  /** Requests Node's parser rejected on the public port (see front/public-server.ts). */
  rejected?: () => number;
  now?: () => number;
}

export interface Metrics {
  registry: Registry;
  /** For the front server's `onRender`. */
  onRender(seconds: number, status: number | 'error'): void;
  close(): void;
}

function isRefreshEvent(message: unknown): message is RefreshEvent {
  return typeof message === 'object' && message !== null && 'outcome' in message && 'trigger' in message && 'durationSeconds' in message;
}

function isApiRequestEvent(message: unknown): message is ApiRequestEvent {
  return typeof message === 'object' && message !== null && 'origin' in message && 'status' in message;
}

/** One row of the table: registers its metrics in `registry` and returns what stops it, if anything. */
type MetricGroup = (registry: Registry, sources: MetricsSources, now: () => number) => (() => void) | void;

/**
 * A counter whose values are plain counts kept elsewhere, read at scrape time: counting costs the
 * counted nothing. `read` gives the count per label value, or null while there is nothing to count.
 */
function scrapedCounter(name: string, help: string, read: (sources: MetricsSources) => Record<string, number> | null): MetricGroup {
  return (registry, sources) => {
    new Counter({
      name,
      help,
      labelNames: ['result'],
      registers: [registry],
      collect() {
        const counts = read(sources);
        if (!counts) return;
        this.reset();
        for (const [result, count] of Object.entries(counts)) this.inc({ result }, count);
      },
    });
  };
}

/** Refreshes of the status data, told by the site's thread (site/data/refresh-events.ts). */
const dataRefreshes: MetricGroup = (registry) => {
  const refreshes = new Counter({ name: 'porchlight_data_refreshes_total', help: 'Refreshes of the status data, by outcome and by what started them (ttl or push).', labelNames: ['outcome', 'trigger'], registers: [registry] });
  const refreshDuration = new Histogram({
    name: 'porchlight_data_refresh_duration_seconds',
    help: 'Duration of refreshes of the status data, by outcome.',
    labelNames: ['outcome'],
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers: [registry],
  });
  return listenOn(REFRESH_EVENTS, (message) => {
    if (!isRefreshEvent(message)) return;
    refreshes.inc({ outcome: message.outcome, trigger: message.trigger });
    refreshDuration.observe({ outcome: message.outcome }, message.durationSeconds);
  });
};

/** Requests to the API, relayed from the site's thread (threads/api-request-relay.ts), to the API's origin only. */
const apiRequests: MetricGroup = (registry, sources) => {
  const requests = new Counter({ name: 'porchlight_api_requests_total', help: 'HTTP requests to the Monitoring and Status API, by status code ("error": no answer).', labelNames: ['status'], registers: [registry] });
  return listenOn(API_REQUEST_EVENTS, (message) => {
    if (isApiRequestEvent(message) && message.origin === sources.apiOrigin) requests.inc({ status: String(message.status) });
  });
};

/** The age of the data the pages show, from the data version the site announces (site/data/data-version.ts). */
const dataAge: MetricGroup = (registry, _sources, now) => {
  let dataVersion: number | null = null;
  const stop = listenOn(DATA_VERSION_CHANNEL, (data) => {
    if (typeof data === 'string' && /^\d+$/.test(data)) dataVersion = Number(data);
  });
  new Gauge({
    name: 'porchlight_data_age_seconds',
    help: 'Age of the status data the pages show (NaN before any is loaded).',
    registers: [registry],
    collect() {
      this.set(dataVersion === null ? Number.NaN : Math.max(0, (now() - dataVersion) / 1000));
    },
  });
  return stop;
};

/** Each thread's memory, asked of every thread at scrape time (threads/thread-memory.ts). */
const threadMemoryGauge: MetricGroup = (registry) => {
  new Gauge({
    name: 'porchlight_thread_memory_bytes',
    help: 'Memory of each thread (front, site, api): its V8 heap used and allocated, external memory and ArrayBuffers.',
    labelNames: ['thread', 'kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const memory of await threadMemory('front')) {
        this.set({ thread: memory.thread, kind: 'heap_used' }, memory.heapUsed);
        this.set({ thread: memory.thread, kind: 'heap_total' }, memory.heapTotal);
        this.set({ thread: memory.thread, kind: 'external' }, memory.external);
        this.set({ thread: memory.thread, kind: 'array_buffers' }, memory.arrayBuffers);
      }
    },
  });
};

/** E-mail subscriptions: the latest counts their thread told (subscribers/stats.ts; none while they are off). */
const subscriptionMetrics: MetricGroup = (registry, _sources, now) => {
  let subscriptions: SubscriptionStats | null = null;
  const stop = listenOn(SUBSCRIPTION_STATS_CHANNEL, (message) => {
    if (isSubscriptionStats(message)) subscriptions = message;
  });
  new Gauge({
    name: 'porchlight_subscribers',
    help: 'Subscribers by state (pending: not confirmed yet, confirmed, bouncing: deliveries refused repeatedly or paused) and channel (email, webhook, slack, discord, teams); sum by (state) for every channel together.',
    labelNames: ['state', 'channel'],
    registers: [registry],
    collect() {
      if (!subscriptions) return;
      // Every series names its channel, so summing over `channel` gives the counts the unlabelled series had.
      for (const [channel, states] of Object.entries(subscriptions.subscribersByChannel)) {
        for (const [state, count] of Object.entries(states)) this.set({ state, channel }, count);
      }
    },
  });
  new Gauge({
    name: 'porchlight_subscription_outbox',
    help: 'Subscription mails in the outbox by state: pending (waiting or retrying), sending, sent, failed (given up or refused), unknown (in flight during a crash, never resent).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!subscriptions) return;
      for (const [state, count] of Object.entries(subscriptions.outbox)) this.set({ state }, count);
    },
  });
  new Gauge({
    name: 'porchlight_subscription_outbox_oldest_seconds',
    help: 'Age of the oldest subscription mail still waiting to be sent (0 when none waits).',
    registers: [registry],
    collect() {
      if (!subscriptions) return;
      this.set(subscriptions.oldestWaiting === null ? 0 : Math.max(0, (now() - subscriptions.oldestWaiting) / 1000));
    },
  });
  scrapedCounter(
    'porchlight_subscription_mails_total',
    'Subscription mails handed to SMTP since start, by result: sent, failed (5xx or given up), retried (4xx or SMTP unreachable), and confirmation mails (confirm_sent, confirm_failed).',
    () => subscriptions && {
      sent: subscriptions.sender.sent,
      failed: subscriptions.sender.failed,
      retried: subscriptions.sender.retried,
      confirm_sent: subscriptions.confirmations.sent,
      confirm_failed: subscriptions.confirmations.failed,
    },
  )(registry, _sources, now);
  scrapedCounter(
    'porchlight_subscription_webhooks_total',
    'Webhook and chat deliveries since start, by result: delivered (2xx), retried (5xx, 408, 429, 3xx, timeout, connection error), failed (other 4xx, refused address), gone (410: unsubscribed), paused (failing for a day).',
    () => (subscriptions?.webhooks ? { ...subscriptions.webhooks } : null),
  )(registry, _sources, now);
  return stop;
};

/** The push fan-out between replicas (fanout/fanout-stats.ts, told by the site's thread; none without DATABASE_URL). */
const fanoutMetrics: MetricGroup = (registry, sources, now) => {
  let fanout: FanoutStats | null = null;
  const stop = listenOn(FANOUT_STATS_CHANNEL, (message) => {
    if (isFanoutStats(message)) fanout = message;
  });
  scrapedCounter(
    'porchlight_push_fanout_total',
    'Push fan-out between replicas over PostgreSQL since start: sent (pushes received here, told to the others), received (told by another replica), resync (full refresh after a (re)connect of the LISTEN or a missed version), failed (could not notify; retried).',
    () => fanout && { sent: fanout.sent, received: fanout.received, resync: fanout.resyncs, failed: fanout.failed },
  )(registry, sources, now);
  new Gauge({
    name: 'porchlight_push_fanout_listener',
    help: 'The push fan-out LISTEN connection to PostgreSQL: 1 for its state now (listening, or connecting: lost and trying again), 0 for the other; absent without DATABASE_URL.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!fanout) return;
      this.set({ state: 'listening' }, fanout.listening ? 1 : 0);
      this.set({ state: 'connecting' }, fanout.listening ? 0 : 1);
    },
  });
  return stop;
};

/** Requests Node's parser rejected on the public port (front/public-server.ts): one plain count. */
const rejectedRequests: MetricGroup = (registry, sources) => {
  new Counter({
    name: 'porchlight_rejected_requests_total',
    help: 'Requests on the public port that Node rejected before they became requests (malformed, oversized headers, too slow), and CONNECT.',
    registers: [registry],
    collect() {
      const rejected = sources.rejected?.();
      if (rejected === undefined) return;
      this.reset();
      this.inc(rejected);
    },
  });
};

/** Every metric beside the default ones, in the order they are exposed. */
const METRICS: readonly MetricGroup[] = [
  dataRefreshes,
  apiRequests,
  dataAge,
  threadMemoryGauge,
  scrapedCounter(
    'porchlight_front_requests_total',
    'Requests to the public port by how the front cache answered: hit, stale (served while re-rendering), miss (rendered), pass (not cacheable).',
    (sources) => {
      const counts = sources.front();
      return counts && { hit: counts.hit, stale: counts.stale, miss: counts.miss, pass: counts.pass };
    },
  ),
  scrapedCounter('porchlight_push_events_total', 'Posts to the push route: accepted, refused (wrong token or method: 404) and too_large (413).', (sources) => {
    const counts = sources.push();
    return counts && { accepted: counts.accepted, refused: counts.refused, too_large: counts.tooLarge };
  }),
  scrapedCounter('porchlight_tls_gate_requests_total', 'Questions of a TLS proxy to the on-demand certificate gate: allowed (200) and refused (404).', (sources) => {
    const counts = sources.tlsGate?.();
    return counts ? { allowed: counts.allowed, refused: counts.refused } : null;
  }),
  rejectedRequests,
  subscriptionMetrics,
  fanoutMetrics,
];

export function createMetrics(sources: MetricsSources): Metrics {
  const now = sources.now ?? Date.now;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Renders are told by the front (its onRender), not read: registered here, beside what feeds them.
  const renders = new Counter({ name: 'porchlight_renders_total', help: 'Renders of pages by the site, by HTTP status ("error": failed).', labelNames: ['status'], registers: [registry] });
  const renderDuration = new Histogram({
    name: 'porchlight_render_duration_seconds',
    help: 'Duration of renders of pages by the site.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const stops = METRICS.flatMap((group) => group(registry, sources, now) ?? []);
  return {
    registry,
    onRender(seconds, status) {
      renders.inc({ status: String(status) });
      renderDuration.observe(seconds);
    },
    close() {
      for (const stop of stops) stop();
    },
  };
}

/** `GET /metrics` and nothing else. */
export function metricsHandler(registry: Registry): RequestListener {
  return (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n'),
    );
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createHttpDispatcher } from '../../src/api/http-dispatcher.ts';
import { createMetrics, metricsHandler, type Metrics } from '../../src/server/metrics.ts';
import { relayApiRequests } from '../../src/server/threads/api-request-relay.ts';
import { announceDataVersion } from '../../src/site/data/data-version.ts';
import { publishRefresh } from '../../src/site/data/refresh-events.ts';
import { announcer } from '../../src/site/data/thread-channel.ts';
import { SUBSCRIPTION_STATS_CHANNEL, type SubscriptionStats } from '../../src/subscribers/stats.ts';

let api: Server;
let apiOrigin: string;
let other: Server;
let otherOrigin: string;
let metrics: Metrics;
let scrapeServer: Server;
let scrapeUrl: string;
let stopRelay: () => void;
let rejected = 0;
const front = { hit: 0, stale: 0, miss: 0, pass: 0 };
const push = { accepted: 0, refused: 0, tooLarge: 0 };
const tlsGate = { allowed: 0, refused: 0 };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  api = createServer((req, res) => res.writeHead(req.url === '/api/v1/limited' ? 429 : 200).end('{}'));
  apiOrigin = await listen(api);
  other = createServer((_req, res) => res.end('ok'));
  otherOrigin = await listen(other);
  // This thread sends the API its requests, as the site's thread does, and relays them the same way.
  stopRelay = relayApiRequests();
  metrics = createMetrics({ apiOrigin, front: () => front, push: () => push, tlsGate: () => tlsGate, rejected: () => rejected, now: () => 1_000_000 + 42_000 });
  scrapeServer = createServer(metricsHandler(metrics.registry));
  scrapeUrl = `${await listen(scrapeServer)}/metrics`;
});

afterEach(async () => {
  stopRelay();
  metrics.close();
  for (const server of [api, other, scrapeServer]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const scrape = async () => (await request(scrapeUrl)).body.text();
const sample = (text: string, line: string) => Number(new RegExp(`^${line.replace(/[{}"()+]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);

describe('metrics', () => {
  it('count refreshes by outcome and trigger, with their durations', async () => {
    publishRefresh({ outcome: 'success', trigger: 'ttl', durationSeconds: 0.2, requests: 13 });
    publishRefresh({ outcome: 'success', trigger: 'push', durationSeconds: 0.1, requests: 13 });
    publishRefresh({ outcome: 'failure', trigger: 'push', durationSeconds: 5, requests: 5 });
    const text = await scrape();
    expect(sample(text, 'porchlight_data_refreshes_total{outcome="success",trigger="ttl"}')).toBe(1);
    expect(sample(text, 'porchlight_data_refreshes_total{outcome="success",trigger="push"}')).toBe(1);
    expect(sample(text, 'porchlight_data_refreshes_total{outcome="failure",trigger="push"}')).toBe(1);
    expect(sample(text, 'porchlight_data_refresh_duration_seconds_count{outcome="success"}')).toBe(2);
    expect(sample(text, 'porchlight_data_refresh_duration_seconds_sum{outcome="failure"}')).toBe(5);
  });

  it('count requests to the API by status code, and only those', async () => {
    await (await request(`${apiOrigin}/api/v1/monitors`)).body.dump();
    await (await request(`${apiOrigin}/api/v1/limited`)).body.dump();
    await (await request(`${apiOrigin}/api/v1/limited`)).body.dump();
    await (await request(`${otherOrigin}/`)).body.dump();
    // The API client's own HTTP (node:http) is counted as undici's is.
    const http = createHttpDispatcher({ connectTimeoutMs: 1_000, headersTimeoutMs: 1_000, bodyTimeoutMs: 1_000, maxResponseBytes: 1_000_000 });
    await (await http.request({ origin: apiOrigin, path: '/api/v1/monitors', method: 'GET', headers: {}, body: null })).body.text();
    await (await http.request({ origin: otherOrigin, path: '/', method: 'GET', headers: {}, body: null })).body.text();
    await http.close();
    // Relayed over a thread channel, as from the site's own thread: delivered on a later turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = await scrape();
    expect(sample(text, 'porchlight_api_requests_total{status="200"}')).toBe(2);
    expect(sample(text, 'porchlight_api_requests_total{status="429"}')).toBe(2);
  });

  it("read the front's and the push route's counters when scraped", async () => {
    Object.assign(front, { hit: 1000, stale: 3, miss: 7, pass: 2 });
    Object.assign(push, { accepted: 4, refused: 9, tooLarge: 1 });
    Object.assign(tlsGate, { allowed: 3, refused: 11 });
    rejected = 6;
    metrics.onRender(0.012, 200);
    metrics.onRender(0.5, 'error');
    const text = await scrape();
    expect(sample(text, 'porchlight_front_requests_total{result="hit"}')).toBe(1000);
    expect(sample(text, 'porchlight_front_requests_total{result="miss"}')).toBe(7);
    expect(sample(text, 'porchlight_push_events_total{result="accepted"}')).toBe(4);
    expect(sample(text, 'porchlight_tls_gate_requests_total{result="allowed"}')).toBe(3);
    expect(sample(text, 'porchlight_tls_gate_requests_total{result="refused"}')).toBe(11);
    expect(sample(text, 'porchlight_push_events_total{result="refused"}')).toBe(9);
    expect(sample(text, 'porchlight_rejected_requests_total')).toBe(6);
    expect(sample(text, 'porchlight_renders_total{status="200"}')).toBe(1);
    expect(sample(text, 'porchlight_renders_total{status="error"}')).toBe(1);
    expect(sample(text, 'porchlight_render_duration_seconds_count')).toBe(2);
  });

  it('give the age of the data the pages show, and process and event-loop metrics', async () => {
    // prom-client writes NaN as `Nan`, which Prometheus parses (case-insensitively) as NaN.
    expect(await scrape()).toMatch(/^porchlight_data_age_seconds nan$/im);
    announceDataVersion('1000000');
    await expect.poll(async () => sample(await scrape(), 'porchlight_data_age_seconds')).toBe(42);
    const text = await scrape();
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
  });

  it('count subscribers by state and channel, the channels summing to the counts by state', async () => {
    const none = { pending: 0, confirmed: 0, bouncing: 0 };
    const stats: SubscriptionStats = {
      subscribers: { pending: 1, confirmed: 7, bouncing: 1 },
      subscribersByChannel: { email: { pending: 1, confirmed: 4, bouncing: 0 }, webhook: { pending: 0, confirmed: 2, bouncing: 1 }, slack: { ...none, confirmed: 1 }, discord: none, teams: none },
      outbox: { pending: 0, sending: 0, sent: 0, failed: 0, unknown: 0 },
      oldestWaiting: null,
      sender: { sent: 0, failed: 0, retried: 0 },
      confirmations: { sent: 0, failed: 0 },
      at: 0,
    };
    announcer<SubscriptionStats>(SUBSCRIPTION_STATS_CHANNEL)(stats);
    let text = '';
    await expect.poll(async () => (text = await scrape()).includes('porchlight_subscribers{'), { timeout: 10_000 }).toBe(true);
    expect(sample(text, 'porchlight_subscribers{state="confirmed",channel="webhook"}')).toBe(2);
    expect(sample(text, 'porchlight_subscribers{state="bouncing",channel="webhook"}')).toBe(1);
    expect(sample(text, 'porchlight_subscribers{state="confirmed",channel="slack"}')).toBe(1);
    expect(sample(text, 'porchlight_subscribers{state="confirmed",channel="teams"}')).toBe(0);
    // No series without a channel (it would be counted twice by a sum).
    expect(text).not.toMatch(/^porchlight_subscribers\{state="[a-z]+"\} /m);
    for (const state of ['pending', 'confirmed', 'bouncing'] as const) {
      const lines = [...text.matchAll(new RegExp(`^porchlight_subscribers\\{state="${state}",channel="[a-z]+"\\} (\\d+)$`, 'gm'))];
      expect(lines).toHaveLength(5);
      expect(lines.reduce((sum, line) => sum + Number(line[1]), 0)).toBe(stats.subscribers[state]);
    }
  });

  it('are served at /metrics only', async () => {
    expect((await request(scrapeUrl.replace('/metrics', '/'))).statusCode).toBe(404);
    const answer = await request(scrapeUrl);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    await answer.body.dump();
  });
});

/** The metrics table: every row registers its metrics, and the scraped counters read their counts. */
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics, type Metrics } from '../../src/server/metrics.ts';
import { announceFanoutStats } from '../../src/server/fanout/fanout-stats.ts';

let metrics: Metrics;
afterEach(() => metrics.close());

describe('the metrics table', () => {
  it('registers every metric of Porchlight beside the default ones', () => {
    metrics = createMetrics({ apiOrigin: 'http://127.0.0.1:1', front: () => null, push: () => null });
    const ours = metrics.registry.getMetricsAsArray().map((metric) => metric.name).filter((name) => name.startsWith('porchlight_')).sort();
    expect(ours).toEqual([
      'porchlight_api_requests_total',
      'porchlight_data_age_seconds',
      'porchlight_data_refresh_duration_seconds',
      'porchlight_data_refreshes_total',
      'porchlight_front_requests_total',
      'porchlight_push_events_total',
      'porchlight_push_fanout_listener',
      'porchlight_push_fanout_total',
      'porchlight_rejected_requests_total',
      'porchlight_render_duration_seconds',
      'porchlight_renders_total',
      'porchlight_subscribers',
      'porchlight_subscription_mails_total',
      'porchlight_subscription_outbox',
      'porchlight_subscription_outbox_oldest_seconds',
      'porchlight_subscription_webhooks_total',
      'porchlight_thread_memory_bytes',
      'porchlight_tls_gate_requests_total',
    ]);
  });

  it("reads the TLS gate's and the parser's counts at scrape time", async () => {
    const tlsGate = { allowed: 3, refused: 1 };
    let rejected = 7;
    metrics = createMetrics({ apiOrigin: 'http://127.0.0.1:1', front: () => null, push: () => null, tlsGate: () => tlsGate, rejected: () => rejected });
    rejected = 9;
    const text = await metrics.registry.getSingleMetricAsString('porchlight_tls_gate_requests_total');
    expect(text).toContain('porchlight_tls_gate_requests_total{result="allowed"} 3');
    expect(text).toContain('porchlight_tls_gate_requests_total{result="refused"} 1');
    expect(await metrics.registry.getSingleMetricAsString('porchlight_rejected_requests_total')).toContain('porchlight_rejected_requests_total 9');
  });

  it("shows the push fan-out's figures as the site's thread last told them, and nothing without them", async () => {
    metrics = createMetrics({ apiOrigin: 'http://127.0.0.1:1', front: () => null, push: () => null });
    expect(await metrics.registry.getSingleMetricAsString('porchlight_push_fanout_listener')).not.toMatch(/^porchlight_push_fanout_listener\{/m);
    announceFanoutStats({ sent: 2, received: 5, resyncs: 1, failed: 0, listening: true });
    await new Promise((resolve) => setImmediate(resolve));
    const total = await metrics.registry.getSingleMetricAsString('porchlight_push_fanout_total');
    expect(total).toContain('porchlight_push_fanout_total{result="sent"} 2');
    expect(total).toContain('porchlight_push_fanout_total{result="received"} 5');
    expect(total).toContain('porchlight_push_fanout_total{result="resync"} 1');
    const listener = await metrics.registry.getSingleMetricAsString('porchlight_push_fanout_listener');
    expect(listener).toContain('porchlight_push_fanout_listener{state="listening"} 1');
    expect(listener).toContain('porchlight_push_fanout_listener{state="connecting"} 0');
  });
});

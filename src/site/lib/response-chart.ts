/**
 * A response-time line chart as SVG path data, plus its summary numbers.
 *
 * - Points with a missing, negative or non-finite latency, or an unreadable time, are dropped;
 *   so are points outside the last `hours` hours before `now` (default 24), future ones included.
 * - Fewer than two points left: null (the page shows "no data" instead of a chart).
 * - More than `maxPoints` (default 120): consecutive points are averaged in equal-count buckets.
 * - x is time across [0, width]; y is latency from 0 (bottom) to the highest plotted value (top):
 *   a zero baseline never exaggerates small differences. Coordinates carry two decimals.
 * - min, max, avg, p95 (nearest rank) and latest are over all kept points, not the buckets,
 *   in the API's latency unit (milliseconds for this service).
 */
import { translator, type Translator } from '../i18n/translator.ts';
import { nowMs, parseInstant } from './time.ts';

export interface LatencyPoint {
  checkedAt: string;
  latency: number | null | undefined;
}

export interface ResponseChartOptions {
  width: number;
  height: number;
  now: Date;
  hours?: number;
  maxPoints?: number;
}

export interface ResponseChart {
  /** 'M x y L x y ...' in viewBox units. */
  path: string;
  viewBox: string;
  min: number;
  max: number;
  avg: number;
  p95: number;
  latest: number;
  /** Points kept before downsampling. */
  samples: number;
  /** ISO times of the first and last kept points, for the axis labels. */
  from: string;
  to: string;
}

export interface LatencySample {
  at: number;
  latency: number;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
  return value;
}

function keptSamples(points: readonly LatencyPoint[], from: number, to: number): LatencySample[] {
  const samples: LatencySample[] = [];
  for (const point of points) {
    const at = parseInstant(point.checkedAt);
    const { latency } = point;
    if (at === null || at < from || at > to) continue;
    if (typeof latency !== 'number' || !Number.isFinite(latency) || latency < 0) continue;
    samples.push({ at, latency });
  }
  return samples.sort((a, b) => a.at - b.at);
}

/** Averages of consecutive, equal-count buckets; at most `maxPoints` results. */
export function downsample(samples: readonly LatencySample[], maxPoints: number): LatencySample[] {
  if (samples.length <= maxPoints) return [...samples];
  const size = Math.ceil(samples.length / maxPoints);
  const buckets: LatencySample[] = [];
  for (let start = 0; start < samples.length; start += size) {
    const bucket = samples.slice(start, start + size);
    const at = bucket.reduce((sum, sample) => sum + sample.at, 0) / bucket.length;
    const latency = bucket.reduce((sum, sample) => sum + sample.latency, 0) / bucket.length;
    buckets.push({ at, latency });
  }
  return buckets;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], fraction: number): number {
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? 0;
}

/**
 * One decimal at most, without trailing zeros or a "-0": a tenth of a viewBox unit is under a
 * pixel, and a page of 50 monitors carries 50 charts of up to 120 points (issue 17, page weight).
 */
const coordinate = (value: number): string => String(Math.round(value * 10) / 10 || 0);

export function responseTimeChart(points: readonly LatencyPoint[], options: ResponseChartOptions): ResponseChart | null {
  const width = positive('width', options.width);
  const height = positive('height', options.height);
  const hours = positive('hours', options.hours ?? 24);
  const maxPoints = Math.floor(positive('maxPoints', options.maxPoints ?? 120));
  if (maxPoints < 2) throw new RangeError('maxPoints must be at least 2');
  const to = nowMs(options.now);
  const samples = keptSamples(points, to - hours * 3_600_000, to);
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (samples.length < 2 || !first || !last) return null;

  const latencies = samples.map((sample) => sample.latency).sort((a, b) => a - b);
  const min = latencies[0] ?? 0;
  const max = latencies[latencies.length - 1] ?? 0;
  const avg = latencies.reduce((sum, latency) => sum + latency, 0) / latencies.length;

  const plotted = downsample(samples, maxPoints);
  // Scaled over the plotted (bucketed) points so the line always spans the full width and height.
  const start = plotted[0]?.at ?? first.at;
  const span = (plotted[plotted.length - 1]?.at ?? last.at) - start;
  const top = Math.max(...plotted.map((sample) => sample.latency));
  const path = plotted
    .map((sample, index) => {
      // All points at one instant: spread them evenly instead of dividing by zero.
      const x = span > 0 ? ((sample.at - start) / span) * width : (index / (plotted.length - 1)) * width;
      const y = top > 0 ? height - (sample.latency / top) * height : height;
      return `${index === 0 ? 'M' : 'L'}${coordinate(x)} ${coordinate(y)}`;
    })
    .join(' ');

  return {
    path,
    viewBox: `0 0 ${width} ${height}`,
    min,
    max,
    avg,
    p95: percentile(latencies, 0.95),
    latest: last.latency,
    samples: samples.length,
    from: new Date(first.at).toISOString(),
    to: new Date(last.at).toISOString(),
  };
}

/** "123 ms"; whole milliseconds. */
export function formatLatency(milliseconds: number | null | undefined, i18n: Translator = translator()): string {
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds < 0) return i18n.t('monitors.noData');
  return i18n.milliseconds(milliseconds);
}

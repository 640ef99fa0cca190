/**
 * `node bench/memory.ts [other-checkout]` (after `npx astro build`): the load part of `npm run
 * bench`, short, for memory. The API and Porchlight as two processes; the demo page and its
 * summary.json under 100 connections (3 runs of 5 s + 3 s); then resident memory and each
 * thread's heap, external and ArrayBuffer memory (from the metrics). Given another built
 * checkout (e.g. main), both are measured in turn, twice, side by side on the same API: on a
 * shared machine only such ratios mean something. Prints JSON; writes nothing.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median, runLoad } from './lib/load.ts';
import { residentMiB, startApi, startOtherPorchlight, startPorchlight, type Running } from './lib/processes.ts';
import { metricsUrlOf, threadMemoryMiB, type ThreadMemoryMiB } from './lib/thread-memory.ts';

const RUNS = 3;
const RUN_SECONDS = 5;
const ROUNDS = 2;

interface Measured {
  label: string;
  requestsPerSecond: number[];
  rssIdleMiB: number;
  rssLoadedMiB: number;
  threads: ThreadMemoryMiB[];
}

async function measure(label: string, site: Running & { url: string }): Promise<Measured> {
  const metricsUrl = metricsUrlOf(site.lines);
  for (const page of ['/acme', '/acme/api/v2/summary.json']) await (await fetch(`${site.url}${page}`)).arrayBuffer();
  const rssIdleMiB = await residentMiB(site.child.pid!);
  const requestsPerSecond: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    requestsPerSecond.push((await runLoad(`${site.url}/acme`, 100, RUN_SECONDS)).requestsPerSecond);
    await runLoad(`${site.url}/acme/api/v2/summary.json`, 100, 3);
  }
  const rssLoadedMiB = await residentMiB(site.child.pid!);
  // A checkout from before the per-thread metric has none to read.
  const threads = metricsUrl ? await threadMemoryMiB(metricsUrl).catch(() => []) : [];
  return { label, requestsPerSecond, rssIdleMiB, rssLoadedMiB, threads };
}

const other = process.argv[2];
const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-bench-memory-'));
const api = await startApi(path.join(dir, 'bench.db'));
const results: Measured[] = [];
try {
  for (let round = 0; round < (other ? ROUNDS : 1); round += 1) {
    const configs: [string, () => Promise<Running & { url: string }>][] = [
      ['this tree', () => startPorchlight(api.url, api.key, 10, { METRICS_PORT: '0' })],
      ...(other ? [[other, () => startOtherPorchlight(other, api.url, api.key, 10, { METRICS_PORT: '0' })] as [string, () => Promise<Running & { url: string }>]] : []),
    ];
    for (const [label, start] of round % 2 ? configs.reverse() : configs) {
      const site = await start();
      try {
        results.push(await measure(label, site));
      } finally {
        await site.stop();
      }
    }
  }
} finally {
  await api.stop();
}
const byLabel = Object.groupBy(results, (result) => result.label);
console.log(JSON.stringify({ results, medianRequestsPerSecond: Object.fromEntries(Object.entries(byLabel).map(([label, runs]) => [label, median(runs!.flatMap((run) => run.requestsPerSecond))])) }, null, 2));

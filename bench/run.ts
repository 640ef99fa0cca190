/**
 * `npm run bench`: Porchlight's demo status page under load from a separate process on loopback,
 * side by side in one run with the limits that matter: a raw `node:http` server sending the same
 * bytes and headers from memory (the runtime's ceiling) and nginx serving them from files. Also a
 * churn run (the data changes every second, so pages re-render continuously), the Statuspage JSON
 * summary, API use, an API outage and memory; then push latency and the replicas section
 * (bench/replicas.ts; `npm run bench -- --replicas-only` runs that section alone). Writes
 * docs/benchmarks.md and bench/results/latest.json. Bounded: every part runs for a fixed time or
 * up to a limit (the replicas section about three minutes at full size).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { loadGenerator, median, runLoad, type LoadResult } from './lib/load.ts';
import { residentMiB, root, startApi, startNginx, startPorchlight, startRawNode } from './lib/processes.ts';
import { startChurn } from './lib/churn.ts';
import { inlineScriptBytes } from './lib/inline-script.ts';
import { renderReport, type BenchReport } from './lib/report.ts';
import { metricsUrlOf, threadMemoryMiB } from './lib/thread-memory.ts';
import { runPushLatency } from './push.ts';
import { runFiftyMonitorPageWeight } from './page-weight.ts';
import { runReplicasBench } from './replicas.ts';
import { parseReplicasArgs } from './lib/replicas-report.ts';

const RUNS = 3;
const RUN_SECONDS = 5;
const NGINX_PORT = 4390;
/** Data freshness for the run: short enough that the outage outlives it and shows the stale notice. */
const FRESH_SECONDS = 10;

function ensureTools(): { nginx: boolean } {
  const has = (command: string) => {
    try {
      execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const missing = ['wrk', 'nginx'].filter((tool) => !has(tool));
  if (missing.length > 0 && process.getuid?.() === 0) {
    console.log(`bench: installing ${missing.join(', ')} from Debian's packages`);
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
      execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } catch {
      console.log('bench: could not install them; continuing with what is here');
    }
  }
  return { nginx: has('nginx') };
}

async function fetchBytes(url: string, gzip: boolean): Promise<Buffer> {
  return (await fetchAnswer(url, gzip)).body;
}

/** Headers a server sends per connection or per moment, not per representation. */
const NOT_CAPTURED = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding', 'age']);

async function fetchAnswer(url: string, gzip: boolean): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const { request } = await import('undici');
  const response = await request(url, { headers: gzip ? { 'accept-encoding': 'gzip' } : { 'accept-encoding': 'identity' } });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined && !NOT_CAPTURED.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { headers, body: Buffer.from(await response.body.arrayBuffer()) };
}

/** The page's two representations as Porchlight sends them, for the raw Node baseline. */
async function capturePage(url: string, dir: string): Promise<string> {
  const [identity, gzip] = await Promise.all([fetchAnswer(url, false), fetchAnswer(url, true)]);
  const file = path.join(dir, 'capture.json');
  const encode = (answer: { headers: Record<string, string>; body: Buffer }) => ({ headers: answer.headers, body: answer.body.toString('base64') });
  await writeFile(file, JSON.stringify({ identity: encode(identity), gzip: encode(gzip) }));
  return file;
}

function summarize(results: LoadResult[]): LoadResult {
  return {
    requestsPerSecond: Math.round(median(results.map((result) => result.requestsPerSecond))),
    p50Ms: median(results.map((result) => result.p50Ms)),
    p99Ms: median(results.map((result) => result.p99Ms)),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    requests: results.reduce((sum, result) => sum + result.requests, 0),
  };
}

const apiRequestsIn = (lines: string[]) =>
  lines.filter((line) => line.includes('refreshed status data')).map((line) => Number(/with (\d+) API requests/.exec(line)?.[1] ?? 0));

async function main(): Promise<void> {
  const started = Date.now();
  const tools = ensureTools();
  const generator = await loadGenerator();
  const dbDir = await mkdtemp(path.join(tmpdir(), 'porchlight-bench-'));
  const api = await startApi(path.join(dbDir, 'bench.db'));
  // With its metrics, for the memory of each thread (read once the load is over).
  const site = await startPorchlight(api.url, api.key, FRESH_SECONDS, { METRICS_PORT: '0' });
  const pageUrl = `${site.url}/acme`;
  try {
    for (let warm = 0; warm < 3; warm += 1) await fetchBytes(pageUrl, true);
    const html = await fetchBytes(pageUrl, false);
    const gzipped = await fetchBytes(pageUrl, true);
    const cssPath = /href="(\/_astro\/[^"]+\.css)"/.exec(html.toString())?.[1];
    const cssGzip = cssPath ? await fetchBytes(`${site.url}${cssPath}`, true) : Buffer.alloc(0);
    const nginx = tools.nginx ? await startNginx(html, gzipped, NGINX_PORT) : null;
    const rawNode = await startRawNode(await capturePage(pageUrl, dbDir));

    const throughput: BenchReport['throughput'] = [];
    for (const connections of [10, 100]) {
      const runs: Record<'porchlight' | 'rawNode' | 'nginx', LoadResult[]> = { porchlight: [], rawNode: [], nginx: [] };
      for (let run = 0; run < RUNS; run += 1) {
        runs.porchlight.push(await runLoad(pageUrl, connections, RUN_SECONDS));
        runs.rawNode.push(await runLoad(rawNode.url, connections, RUN_SECONDS));
        if (nginx) runs.nginx.push(await runLoad(nginx.url, connections, RUN_SECONDS));
      }
      throughput.push({
        connections,
        porchlight: summarize(runs.porchlight),
        rawNode: summarize(runs.rawNode),
        nginx: nginx ? summarize(runs.nginx) : null,
        spread: { porchlight: runs.porchlight.map((result) => result.requestsPerSecond), rawNode: runs.rawNode.map((result) => result.requestsPerSecond) },
      });
    }
    await rawNode.stop();

    // The Statuspage summary is answered from the same front cache as the page.
    const summaryUrl = `${site.url}/acme/api/v2/summary.json`;
    const summaryRuns: LoadResult[] = [];
    for (let run = 0; run < RUNS; run += 1) summaryRuns.push(await runLoad(summaryUrl, 100, RUN_SECONDS));

    // Churn: a second Porchlight with 1 s freshness while an incident gets an update every second,
    // so every page re-renders continuously; quiet runs of the first one interleaved.
    // Pages kept 1 s too, so each one re-renders every second, from data that changed.
    const churnSite = await startPorchlight(api.url, api.key, 1, { PAGE_CACHE_SECONDS: '1' });
    const churnUrl = `${churnSite.url}/acme`;
    for (let warm = 0; warm < 3; warm += 1) await fetchBytes(churnUrl, true);
    const churner = await startChurn(api.url, api.key);
    const churnRuns: LoadResult[] = [];
    const quietRuns: LoadResult[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      quietRuns.push(await runLoad(pageUrl, 100, RUN_SECONDS));
      churnRuns.push(await runLoad(churnUrl, 100, RUN_SECONDS));
    }
    const churnUpdates = await churner.stop();
    const churnRenders = churnSite.lines.filter((line) => line.includes('refreshed status data')).length;
    await churnSite.stop();

    const before = apiRequestsIn(site.lines).length;
    const sustained = await runLoad(pageUrl, 100, 30);
    const refreshes = apiRequestsIn(site.lines).slice(before);
    const perRefresh = Math.max(...refreshes, 0);
    const apiUse = { seconds: 30, refreshes: refreshes.length, requests: refreshes.reduce((sum, count) => sum + count, 0), perRefresh, bound: (30 / FRESH_SECONDS + 1) * perRefresh, freshSeconds: FRESH_SECONDS, load: sustained };

    // The outage outlives the data's freshness, so refreshes fail and stale data is served.
    const outageRun = runLoad(pageUrl, 100, 25);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await api.stop();
    const outage = await outageRun;
    const staleNoticeShown = (await fetchBytes(pageUrl, false)).toString().includes('Live data unavailable');

    const rssMiB = await residentMiB(site.child.pid!);
    const metricsUrl = metricsUrlOf(site.lines);
    const threads = metricsUrl ? await threadMemoryMiB(metricsUrl) : [];
    await nginx?.stop();
    // On its own API and site: filling an organization up to 50 monitors would change the API use above.
    const fiftyMonitors = await runFiftyMonitorPageWeight();

    const report: BenchReport = {
      date: new Date().toISOString(),
      machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
      generator,
      runSeconds: RUN_SECONDS,
      runs: RUNS,
      throughput,
      apiUse,
      outage: { load: outage, staleNoticeShown, baselineP99Ms: throughput.find((row) => row.connections === 100)!.porchlight.p99Ms },
      summaryJson: summarize(summaryRuns),
      churn: { quiet: summarize(quietRuns), churn: summarize(churnRuns), updates: churnUpdates, refreshes: churnRenders },
      rssMiB,
      threads,
      pageWeight: { htmlBytes: html.length, htmlGzipBytes: gzipped.length, cssGzipBytes: cssGzip.length, inlineScriptBytes: inlineScriptBytes(html.toString()) },
      fiftyMonitors,
      durationSeconds: Math.round((Date.now() - started) / 1000),
    };
    await mkdir(path.join(root, 'bench/results'), { recursive: true });
    await writeFile(path.join(root, 'bench/results/latest.json'), JSON.stringify(report, null, 2));
    const markdown = renderReport(report, await readFile(path.join(root, 'docs/benchmarks.md'), 'utf8').catch(() => ''));
    await writeFile(path.join(root, 'docs/benchmarks.md'), markdown);
    console.log(markdown);
  } finally {
    await site.stop();
    await api.stop();
  }
  // Its own processes, after the load runs are over: nothing else competes for the cores.
  console.log(await runPushLatency(FRESH_SECONDS));
  // Three replicas behind nginx on one PostgreSQL (bench/replicas.ts): a section of its own, last
  // (its size flags apply: `npm run bench -- --quick` shortens this section only).
  console.log(await runReplicasBench(parseReplicasArgs(process.argv.slice(2))));
}

// `npm run bench -- --replicas-only [--quick]`: the replicas section alone (bench/replicas.ts).
const args = process.argv.slice(2);
if (args.includes('--replicas-only')) console.log(await runReplicasBench(parseReplicasArgs(args)));
else await main();

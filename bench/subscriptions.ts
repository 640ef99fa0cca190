/**
 * `node bench/subscriptions.ts` (after `npx astro build`): 10,000 confirmed subscribers, one
 * incident. Measures how long the fan-out takes (from the incident's creation until a loopback
 * SMTP server has accepted every mail), Porchlight's resident memory after it, and the page's
 * throughput and p99 while it runs, next to a site without subscriptions loaded in turn. Writes
 * bench/results/subscriptions.json and the subscriptions section of docs/benchmarks.md.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '../src/api/index.ts';
import { loadGenerator, median, runLoad, type LoadResult } from './lib/load.ts';
import { residentMiB, root, startApi, startPorchlight } from './lib/processes.ts';
import { freePort } from './lib/free-port.ts';
import { countingSmtp, seedConfirmedSubscribers } from './lib/subscriber-fixtures.ts';
import { metricsUrlOf, threadMemoryMiB, type ThreadMemoryMiB } from './lib/thread-memory.ts';

const SUBSCRIBERS = 10_000;
const CONNECTIONS = 100;
/** At the default pace (SUBSCRIPTION_MAILS_PER_SECOND=50) the fan-out takes about 200 s. */
const FAN_OUT_LIMIT_MS = 600_000;

interface Runs {
  requestsPerSecond: number[];
  p99Ms: number[];
  errors: number;
}

interface Result {
  withoutSubscriptions: Runs;
  duringFanOut: Runs;
  fanOutSeconds: number;
  mails: number;
  residentMiB: number;
  threads: ThreadMemoryMiB[];
}

const RUN_SECONDS = 3;
const MAX_PAIRS = 15;

function record(runs: Runs, load: LoadResult): void {
  runs.requestsPerSecond.push(load.requestsPerSecond);
  runs.p99Ms.push(load.p99Ms);
  runs.errors += load.errors + load.non2xx;
}

async function main(): Promise<Result> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-bench-subs-'));
  const api = await startApi(path.join(dir, 'api.db'));
  const smtp = await countingSmtp();
  const client = createClient({ baseUrl: api.url, apiKey: api.key, maxRetries: 0 });
  try {
    let acme: { id: string; monitors: { monitorId: string }[] } | undefined;
    for await (const page of client.statusPages.listAll()) if (page.slug === 'acme') acme = page;
    if (!acme) throw new Error('no demo page');
    const subscribersDb = path.join(dir, 'subscribers.db');
    await seedConfirmedSubscribers(subscribersDb, acme.id, SUBSCRIBERS);
    // Both sites alike but for subscriptions, with the default freshness (30 s) and push updates,
    // which need each site's public address for the API's webhook. They run side by side and
    // are loaded in turn, a few seconds each, while the fan-out runs: on a shared machine only
    // such interleaved runs get the same machine.
    const start = async (env: Record<string, string>) => {
      const port = await freePort();
      return startPorchlight(api.url, api.key, 30, { PORT: String(port), SITE_PUBLIC_URL: `http://127.0.0.1:${port}`, HISTORY_BACKFILL_PAGES: '0', ...env });
    };
    const plain = await start({ SUBSCRIPTIONS: 'false' });
    const site = await start({ METRICS_PORT: '0', SUBSCRIPTIONS: 'true', SUBSCRIBERS_DB: subscribersDb, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) });
    try {
      for (const running of [plain, site]) await runLoad(`${running.url}/acme/`, CONNECTIONS, 3);
      const withoutSubscriptions: Runs = { requestsPerSecond: [], p99Ms: [], errors: 0 };
      const duringFanOut: Runs = { requestsPerSecond: [], p99Ms: [], errors: 0 };
      const created = performance.now();
      await client.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Bench: fan-out', message: 'One incident for ten thousand subscribers.', severity: 'minor' });
      let fanOutSeconds = Number.NaN;
      const watch = setInterval(() => {
        if (Number.isNaN(fanOutSeconds) && smtp.count() >= SUBSCRIBERS) fanOutSeconds = (performance.now() - created) / 1000;
      }, 50);
      // Load only while mails are being sent (the first arrive within seconds of the incident).
      while (smtp.count() === 0 && performance.now() - created < 60_000) await new Promise((resolve) => setTimeout(resolve, 50));
      for (let pair = 0; pair < MAX_PAIRS && smtp.count() < SUBSCRIBERS * 0.9; pair += 1) {
        const order: [Runs, string][] = [[withoutSubscriptions, plain.url], [duringFanOut, site.url]];
        for (const [runs, url] of pair % 2 ? order.reverse() : order) record(runs, await runLoad(`${url}/acme/`, CONNECTIONS, RUN_SECONDS));
      }
      while (Number.isNaN(fanOutSeconds) && performance.now() - created < FAN_OUT_LIMIT_MS) await new Promise((resolve) => setTimeout(resolve, 200));
      clearInterval(watch);
      const memory = await residentMiB(site.child.pid!);
      const metricsUrl = metricsUrlOf(site.lines);
      const threads = metricsUrl ? await threadMemoryMiB(metricsUrl) : [];
      return { withoutSubscriptions, duringFanOut, fanOutSeconds, mails: smtp.count(), residentMiB: memory, threads };
    } finally {
      await Promise.all([plain.stop(), site.stop()]);
    }
  } finally {
    await client.close();
    await smtp.close();
    await api.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function section(result: Result, generator: string): string {
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const row = (name: string, runs: Runs) => `| ${name} | ${Math.round(median(runs.requestsPerSecond))} | ${median(runs.p99Ms).toFixed(1)} | ${runs.errors} |`;
  const rps = (runs: Runs) => median(runs.requestsPerSecond);
  const p99 = (runs: Runs) => median(runs.p99Ms);
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${generator}, ${CONNECTIONS} connections; the two sites run side by side and are loaded in turn, ${result.duringFanOut.requestsPerSecond.length} runs of ${RUN_SECONDS} s each while the fan-out runs; rows are medians (compare the two rows, not the absolute figures).`,
    '',
    '| Run | req/s | p99 ms | errors |',
    '|---|---|---|---|',
    row('no subscriptions', result.withoutSubscriptions),
    row(`${SUBSCRIBERS.toLocaleString('en')} subscribers, one incident fanning out`, result.duringFanOut),
    '',
    `Fan-out: ${Number.isNaN(result.fanOutSeconds) ? `only ${result.mails.toLocaleString('en')} of ${SUBSCRIBERS.toLocaleString('en')} mails accepted within ${FAN_OUT_LIMIT_MS / 1000} s` : `${result.mails.toLocaleString('en')} mails accepted by the loopback SMTP server ${result.fanOutSeconds.toFixed(1)} s after the incident was created`} (default pace of 50 mails a second, default freshness, push updates); Porchlight's resident memory afterwards ${result.residentMiB} MiB (V8 heap used / allocated: ${result.threads.map((thread) => `${thread.thread} ${thread.heapUsed} / ${thread.heapTotal} MiB`).join(', ')}). Throughput ratio ${ratio(rps(result.duringFanOut), rps(result.withoutSubscriptions))}, p99 ratio ${ratio(p99(result.duringFanOut), p99(result.withoutSubscriptions))}.`,
  ].join('\n');
}

if (import.meta.main) {
  const result = await main();
  const text = section(result, await loadGenerator());
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/subscriptions.json'), JSON.stringify(result, null, 2));
  const docs = path.join(root, 'docs/benchmarks.md');
  const current = await readFile(docs, 'utf8');
  const block = `<!-- subscriptions:start -->\n${text}\n<!-- subscriptions:end -->`;
  const next = current.includes('<!-- subscriptions:start -->')
    ? current.replace(/<!-- subscriptions:start -->[\s\S]*<!-- subscriptions:end -->/, block)
    : `${current.trimEnd()}\n\n## E-mail subscription fan-out\n\n\`node bench/subscriptions.ts\` (after \`npx astro build\`): ${SUBSCRIBERS.toLocaleString('en')} confirmed subscribers of the demo page, one incident, page load side by side with a run without subscriptions.\n\n${block}\n`;
  await writeFile(docs, next);
  console.log(text);
}

/** The benchmark's figures as Markdown, written between markers in docs/benchmarks.md. */
import { INLINE_SCRIPT_BUDGET_BYTES } from '../../src/site/scripts/budget.ts';
import { FIFTY_BUDGET, type PageWeight } from './page-weight.ts';
import type { LoadResult } from './load.ts';
import { percentile, type PushLatencyResult } from './push-latency.ts';
import type { ThreadMemoryMiB } from './thread-memory.ts';

export interface BenchReport {
  date: string;
  machine: string;
  generator: string;
  runSeconds: number;
  runs: number;
  throughput: {
    connections: number;
    porchlight: LoadResult;
    rawNode: LoadResult;
    nginx: LoadResult | null;
    /** Requests per second of each run, to show the spread behind the medians. */
    spread: { porchlight: number[]; rawNode: number[] };
  }[];
  /** The Statuspage summary.json at 100 connections, from the same front cache as the page. */
  summaryJson: LoadResult;
  /** 100 connections: quiet (data fresh for 10 s) and churn (new data every second). */
  churn: { quiet: LoadResult; churn: LoadResult; updates: number; refreshes: number };
  apiUse: { seconds: number; freshSeconds: number; refreshes: number; requests: number; perRefresh: number; bound: number; load: LoadResult };
  outage: { load: LoadResult; staleNoticeShown: boolean; baselineP99Ms: number };
  rssMiB: number;
  /** Each thread's heap, external and ArrayBuffer memory after the load (from the metrics). */
  threads: ThreadMemoryMiB[];
  pageWeight: { htmlBytes: number; htmlGzipBytes: number; cssGzipBytes: number; inlineScriptBytes: number };
  /** A page of 50 monitors (bench/lib/page-weight.ts). */
  fiftyMonitors: PageWeight;
  durationSeconds: number;
}

const START = '<!-- results:start -->';
const END = '<!-- results:end -->';
const PUSH_START = '<!-- push:start -->';
const PUSH_END = '<!-- push:end -->';

const ms = (value: number) => `${value.toFixed(2)} ms`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

const failures = (result: LoadResult) => result.errors + result.non2xx;
const range = (values: number[]) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;

export function resultsSection(report: BenchReport): string {
  const rows = report.throughput.map(({ connections, porchlight, rawNode, nginx, spread }) => {
    const toRaw = (porchlight.requestsPerSecond / rawNode.requestsPerSecond).toFixed(2);
    const toNginx = nginx ? (porchlight.requestsPerSecond / nginx.requestsPerSecond).toFixed(2) : 'n/a';
    const nginxCells = nginx ? `${nginx.requestsPerSecond} | ${ms(nginx.p99Ms)}` : 'n/a | n/a';
    return `| ${connections} | ${porchlight.requestsPerSecond} (${range(spread.porchlight)}) | ${ms(porchlight.p50Ms)} | ${ms(porchlight.p99Ms)} | ${failures(porchlight)} | ${rawNode.requestsPerSecond} (${range(spread.rawNode)}) | ${ms(rawNode.p99Ms)} | ${nginxCells} | ${toRaw} | ${toNginx} |`;
  });
  const at100 = report.throughput.find((row) => row.connections === 100);
  const toRaw100 = at100 ? at100.porchlight.requestsPerSecond / at100.rawNode.requestsPerSecond : Number.NaN;
  const { apiUse, outage, pageWeight, churn, summaryJson } = report;
  const outageFailures = failures(outage.load);
  const churnRatio = churn.churn.p99Ms / churn.quiet.p99Ms;
  const summaryRatio = at100 ? summaryJson.requestsPerSecond / at100.porchlight.requestsPerSecond : Number.NaN;
  return [
    START,
    `Measured ${report.date} on ${report.machine}; load by ${report.generator}; rows are medians of ${report.runs} runs of ${report.runSeconds} s (the spread of req/s across runs in brackets), Porchlight, raw Node and nginx interleaved. The whole run took ${report.durationSeconds} s.`,
    '',
    '### Warm throughput of the demo status page (`/acme`, gzip)',
    '',
    '| Connections | Porchlight req/s | p50 | p99 | errors | raw Node req/s | p99 | nginx req/s | p99 | Porchlight / raw Node | Porchlight / nginx |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '### Churn: pages re-rendering continuously (100 connections)',
    '',
    '| Run | req/s | p50 | p99 | errors |',
    '|---|---|---|---|---|',
    `| Quiet (data fresh for ${apiUse.freshSeconds} s) | ${churn.quiet.requestsPerSecond} | ${ms(churn.quiet.p50Ms)} | ${ms(churn.quiet.p99Ms)} | ${failures(churn.quiet)} |`,
    `| Churn (1 s data freshness and page cache, an incident update every second: ${churn.updates} updates, ${churn.refreshes} data refreshes) | ${churn.churn.requestsPerSecond} | ${ms(churn.churn.p50Ms)} | ${ms(churn.churn.p99Ms)} | ${failures(churn.churn)} |`,
    '',
    '### Targets',
    '',
    '| Target | Measured | Verdict |',
    '|---|---|---|',
    `| Throughput ≥ 0.9 × raw Node at 100 connections | ${Number.isNaN(toRaw100) ? 'n/a' : toRaw100.toFixed(2)} | ${Number.isNaN(toRaw100) ? 'n/a' : verdict(toRaw100 >= 0.9)} |`,
    `| p99 < 20 ms at 100 connections, zero errors | ${at100 ? `${ms(at100.porchlight.p99Ms)}, ${failures(at100.porchlight)} errors` : 'n/a'} | ${at100 ? verdict(at100.porchlight.p99Ms < 20 && failures(at100.porchlight) === 0) : 'n/a'} |`,
    `| Churn p99 ≤ 1.5 × quiet p99 and < 20 ms, zero errors | ${ms(churn.churn.p99Ms)} vs ${ms(churn.quiet.p99Ms)} (× ${churnRatio.toFixed(2)}), ${failures(churn.churn)} errors | ${verdict(churnRatio <= 1.5 && churn.churn.p99Ms < 20 && failures(churn.churn) === 0)} |`,
    `| Statuspage summary.json at the page's rate (100 connections) | ${summaryJson.requestsPerSecond} req/s, p99 ${ms(summaryJson.p99Ms)}, ${failures(summaryJson)} errors (× ${Number.isNaN(summaryRatio) ? 'n/a' : summaryRatio.toFixed(2)} the page) | ${verdict(summaryRatio >= 0.9 && failures(summaryJson) === 0)} |`,
    `| API requests in ${apiUse.seconds} s at 100 connections ≤ (${apiUse.seconds} s / ${apiUse.freshSeconds} s + 1) × ${apiUse.perRefresh} per refresh = ${apiUse.bound} | ${apiUse.requests} in ${apiUse.refreshes} refreshes (${apiUse.load.requests} page views) | ${verdict(apiUse.requests <= apiUse.bound)} |`,
    `| API stopped mid-run: zero 5xx, every page served | ${outageFailures} errors or non-2xx of ${outage.load.requests}; stale notice shown: ${outage.staleNoticeShown ? 'yes' : 'no'} | ${verdict(outageFailures === 0 && outage.staleNoticeShown)} |`,
    `| API stopped mid-run: latency unchanged within noise | p99 ${ms(outage.load.p99Ms)} vs ${ms(outage.baselineP99Ms)} warm | ${verdict(outage.load.p99Ms < Math.max(2 * outage.baselineP99Ms, 20))} |`,
    `| Resident memory after the load < 160 MiB | ${report.rssMiB} MiB | ${verdict(report.rssMiB < 160)} |`,
    `| Page weight: HTML + CSS < 30 KB gzipped | ${pageWeight.htmlGzipBytes} + ${pageWeight.cssGzipBytes} = ${pageWeight.htmlGzipBytes + pageWeight.cssGzipBytes} bytes (HTML ${pageWeight.htmlBytes} bytes uncompressed) | ${verdict(pageWeight.htmlGzipBytes + pageWeight.cssGzipBytes < 30 * 1024)} |`,
    `| Page weight: HTML ≤ 110 KB uncompressed | ${pageWeight.htmlBytes} bytes | ${verdict(pageWeight.htmlBytes <= 110 * 1024)} |`,
    `| Page weight: inline script ≤ ${INLINE_SCRIPT_BUDGET_BYTES} bytes (minified at build time) | ${pageWeight.inlineScriptBytes} bytes | ${verdict(pageWeight.inlineScriptBytes <= INLINE_SCRIPT_BUDGET_BYTES)} |`,
    `| Page of ${report.fiftyMonitors.monitors} monitors: HTML ≤ ${FIFTY_BUDGET.htmlBytes / 1024} KB, ≤ ${FIFTY_BUDGET.elements} elements | ${report.fiftyMonitors.htmlBytes} bytes (${report.fiftyMonitors.htmlGzipBytes} gzipped), ${report.fiftyMonitors.elements} elements | ${verdict(report.fiftyMonitors.htmlBytes <= FIFTY_BUDGET.htmlBytes && report.fiftyMonitors.elements <= FIFTY_BUDGET.elements)} |`,
    '',
    `### Memory per thread after the load (resident: ${report.rssMiB} MiB for the whole process)`,
    '',
    '| Thread | V8 heap used | V8 heap allocated | External | ArrayBuffers |',
    '|---|---|---|---|---|',
    ...report.threads.map((thread) => `| ${thread.thread} | ${thread.heapUsed} MiB | ${thread.heapTotal} MiB | ${thread.external} MiB | ${thread.arrayBuffers} MiB |`),
    END,
  ].join('\n');
}

const TEMPLATE = `# Benchmarks

\`npm run bench\` builds the site and measures the demo status page under load. Everything runs on
this machine over loopback; the load comes from a separate process (wrk with one thread when
installed, else autocannon), each run bounded in time. The script installs wrk and nginx from
Debian's packages when they are missing and it runs as root.

What it does, in order:

1. Starts the API alone (\`node src/service/main.ts\`, demo data in a temporary SQLite file) and
   Porchlight pointed at it (\`STATUS_API_URL\`), as two processes, like a real deployment.
2. Warms \`/acme\`, saves its HTML and its gzip bytes with their headers, and starts the two
   references: a raw \`node:http\` server sending those same bytes and headers from memory
   (\`bench/raw-node-server.ts\`: the runtime's own ceiling) and nginx (one worker, as Node serves
   on one thread) serving them from files (\`gzip_static\`).
3. Warm throughput: ${'$'}{RUNS} runs of 5 s at 10 and at 100 connections, Porchlight, raw Node and
   nginx interleaved; the table shows medians, the spread, and the ratios of the medians.
4. The Statuspage \`summary.json\` at 100 connections, answered from the same front cache.
5. Churn: a second Porchlight with 1 s data freshness while an incident gets an update through the
   API every second, so its pages re-render continuously, interleaved with quiet runs of the first.
6. API use: 30 s at 100 connections with a 10 s data freshness (\`CACHE_FRESH_SECONDS\`), counting
   the API requests Porchlight logs per refresh.
7. Outage: 25 s at 100 connections; the API process is killed after 5 s, so the data goes stale
   and every refresh fails for the last 10 s or more.
8. Resident memory of the Porchlight process after all of that, each thread's V8 heap, external
   and ArrayBuffer memory (its \`porchlight_thread_memory_bytes\` metric), and the page's weight;
   then, on their own API and site, a page of 50 monitors (\`bench/page-weight.ts\`, runnable alone).
9. Push latency: 20 trials of an incident created, then updated, through the API until the page
   shows it, with push and without (see \`bench/lib/push-latency.ts\`).

Numbers on a shared 2-core machine are noisy: compare ratios from one run, not absolute figures
across runs.

## Latest results

${START}
${END}
`;

function replaceSection(document: string, start: string, end: string, section: string): string {
  return `${document.slice(0, document.indexOf(start))}${section}${document.slice(document.indexOf(end) + end.length)}`;
}

export function renderReport(report: BenchReport, existing: string): string {
  const document = existing.includes(START) && existing.includes(END) ? existing : TEMPLATE.replace('${RUNS}', String(report.runs));
  return replaceSection(document, START, END, resultsSection(report));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function pushSection(result: PushLatencyResult, measuredAt: string, machine: string): string {
  const row = (label: string, samples: PushLatencyResult['withPush']) =>
    `| ${label} | ${samples.createdMs.length} | ${seconds(percentile(samples.createdMs, 50))} | ${seconds(percentile(samples.createdMs, 95))} | ${seconds(percentile(samples.updatedMs, 50))} | ${seconds(percentile(samples.updatedMs, 95))} |`;
  const first = result.withPush.firstRequest;
  const worstPushP95 = Math.max(percentile(result.withPush.createdMs, 95), percentile(result.withPush.updatedMs, 95));
  return [
    PUSH_START,
    `Measured ${measuredAt} on ${machine}: ${result.trials} trials per column, data freshness \`CACHE_FRESH_SECONDS=${result.freshSeconds}\`, page cache ${result.pageCacheSeconds} s.`,
    '',
    '| | Trials | Incident created → on the page, p50 | p95 | Update posted → on the page, p50 | p95 |',
    '|---|---|---|---|---|---|',
    row('With push', result.withPush),
    row(`Without push (polling every ${result.freshSeconds} s)`, result.withoutPush),
    '',
    `Target: with push, p95 ≤ 2 s: ${seconds(worstPushP95)}, ${verdict(worstPushP95 <= 2_000)}.`,
    ...(first ? [`With push, the first request after the site had the new data showed the change in ${first.shown} of ${first.of} events: ${verdict(first.shown === first.of)}.`] : []),
    PUSH_END,
  ].join('\n');
}

/** Writes the push latency between its markers, appended under its own heading the first time. */
export function renderPushReport(section: string, existing: string): string {
  if (existing.includes(PUSH_START) && existing.includes(PUSH_END)) return replaceSection(existing, PUSH_START, PUSH_END, section);
  return `${existing.trimEnd()}\n\n## Push latency\n\n${section}\n`;
}

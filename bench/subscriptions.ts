/**
 * `node bench/subscriptions.ts` (after `npx astro build`): 10,000 confirmed subscribers, one
 * incident. Measures how long the fan-out takes (from the incident's creation until a loopback
 * SMTP server has accepted every mail), Porchlight's resident memory after it, and the page's
 * throughput and p99 while it runs, next to a run without subscriptions. Writes
 * bench/results/subscriptions.json and the subscriptions section of docs/benchmarks.md.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createClient } from '../src/api/index.ts';
import { SubscriberStore } from '../src/subscribers/store.ts';
import { loadGenerator, runLoad, type LoadResult } from './lib/load.ts';
import { residentMiB, root, startApi, startPorchlight } from './lib/processes.ts';
import { freePort } from './lib/free-port.ts';

const SUBSCRIBERS = 10_000;
const LOAD_SECONDS = 20;
const CONNECTIONS = 100;
/** At the default pace (SUBSCRIPTION_MAILS_PER_SECOND=50) the fan-out takes about 200 s. */
const FAN_OUT_LIMIT_MS = 600_000;

/** A catch-all SMTP server that only counts what it accepts. */
async function countingSmtp(): Promise<{ port: number; count: () => number; close(): Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.server.address() as AddressInfo).port, count: () => received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function seed(databasePath: string, pageId: string): void {
  const store = new SubscriberStore(databasePath);
  const now = Date.now();
  for (let i = 0; i < SUBSCRIBERS; i += 1) {
    const address = `subscriber${i}@example.com`;
    const request = store.subscribe(pageId, { address, key: address }, [], now)!;
    store.confirm(request.token, now);
  }
  store.close();
}

interface Result {
  withoutSubscriptions: LoadResult;
  duringFanOut: LoadResult;
  fanOutSeconds: number;
  mails: number;
  residentMiB: number;
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
    seed(subscribersDb, acme.id);
    // Both runs alike but for subscriptions, with the default freshness (30 s) and push updates,
    // which need the site's public address for the API's webhook.
    const port = await freePort();
    const common = { PORT: String(port), SITE_PUBLIC_URL: `http://127.0.0.1:${port}`, HISTORY_BACKFILL_PAGES: '0' };

    const plain = await startPorchlight(api.url, api.key, 30, { ...common, SUBSCRIPTIONS: 'false' });
    await runLoad(`${plain.url}/acme/`, CONNECTIONS, 3);
    const withoutSubscriptions = await runLoad(`${plain.url}/acme/`, CONNECTIONS, LOAD_SECONDS);
    await plain.stop();

    const site = await startPorchlight(api.url, api.key, 30, {
      ...common,
      SUBSCRIPTIONS: 'true',
      SUBSCRIBERS_DB: subscribersDb,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
    });
    await runLoad(`${site.url}/acme/`, CONNECTIONS, 3);
    const load = runLoad(`${site.url}/acme/`, CONNECTIONS, LOAD_SECONDS);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const created = performance.now();
    await client.incidents.create({ monitorIds: [acme.monitors[0]!.monitorId], title: 'Bench: fan-out', message: 'One incident for ten thousand subscribers.', severity: 'minor' });
    let fanOutSeconds = Number.NaN;
    while (performance.now() - created < FAN_OUT_LIMIT_MS) {
      if (smtp.count() >= SUBSCRIBERS) {
        fanOutSeconds = (performance.now() - created) / 1000;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const duringFanOut = await load;
    const memory = await residentMiB(site.child.pid!);
    await site.stop();
    return { withoutSubscriptions, duringFanOut, fanOutSeconds, mails: smtp.count(), residentMiB: memory };
  } finally {
    await client.close();
    await smtp.close();
    await api.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function section(result: Result, generator: string): string {
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const row = (name: string, load: LoadResult) => `| ${name} | ${Math.round(load.requestsPerSecond)} | ${load.p99Ms.toFixed(1)} | ${load.errors + load.non2xx} |`;
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${generator}, ${CONNECTIONS} connections, ${LOAD_SECONDS} s per run, the machine shared with other work (compare the two rows, not the absolute figures).`,
    '',
    '| Run | req/s | p99 ms | errors |',
    '|---|---|---|---|',
    row('no subscriptions', result.withoutSubscriptions),
    row(`${SUBSCRIBERS.toLocaleString('en')} subscribers, one incident fanning out`, result.duringFanOut),
    '',
    `Fan-out: ${Number.isNaN(result.fanOutSeconds) ? `only ${result.mails.toLocaleString('en')} of ${SUBSCRIBERS.toLocaleString('en')} mails accepted within ${FAN_OUT_LIMIT_MS / 1000} s` : `${result.mails.toLocaleString('en')} mails accepted by the loopback SMTP server ${result.fanOutSeconds.toFixed(1)} s after the incident was created`} (default pace of 50 mails a second, default freshness, push updates); Porchlight's resident memory afterwards ${result.residentMiB} MiB. Throughput ratio ${ratio(result.duringFanOut.requestsPerSecond, result.withoutSubscriptions.requestsPerSecond)}, p99 ratio ${ratio(result.duringFanOut.p99Ms, result.withoutSubscriptions.p99Ms)}.`,
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

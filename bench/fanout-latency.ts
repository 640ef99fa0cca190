/**
 * `node bench/fanout-latency.ts` (after `npx astro build`): push-to-visible on the OTHER replica.
 * A throwaway PostgreSQL, one API process, two site replicas (as `npm start` runs them, the
 * bundle) sharing DATABASE_URL; the API's push channel points at replica B (its
 * SITE_PUBLIC_URL, as if a balancer always picked B), so replica C learns of each change only
 * through the fan-out (LISTEN/NOTIFY). Each trial creates an incident through the API and polls
 * both pages every 25 ms until they show it; trials 1.1 s apart (a push refresh runs at most
 * once a second). C's freshness without push is 300 s, so every figure is the fan-out's.
 * Prints a Markdown section for docs/benchmarks.md and writes bench/results/fanout-latency.json.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createClient } from '../src/api/index.ts';
import { isPorchlightPushUrl } from '../src/contract/porchlight-push.ts';
import { startPostgresCluster } from '../test/support/postgres.ts';
import { freePort } from './lib/free-port.ts';
import { root, startApi, startPorchlight } from './lib/processes.ts';
import { percentile } from './lib/push-latency.ts';

const TRIALS = Number(process.env.FANOUT_TRIALS ?? 20);
const POLL_MS = 25;
const GIVE_UP_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function shows(url: string, text: string): Promise<boolean> {
  const answer = await request(url, { headers: { 'accept-encoding': 'identity' } });
  return (await answer.body.text()).includes(text);
}

/** Milliseconds from `since` until `url` shows `text`. */
async function shownAfter(url: string, text: string, since: number): Promise<number> {
  while (performance.now() - since < GIVE_UP_MS) {
    if (await shows(url, text)) return performance.now() - since;
    await sleep(POLL_MS);
  }
  throw new Error(`"${text}" did not show on ${url} within ${GIVE_UP_MS / 1000} s`);
}

const cluster = await startPostgresCluster();
const dir = await mkdtemp(path.join(tmpdir(), 'pl-fanout-bench-'));
const api = await startApi(path.join(dir, 'api.db'), { RATE_LIMIT_PRO: '1000000' });
const client = createClient({ baseUrl: api.url, apiKey: api.key });
const portB = await freePort();
const env = {
  DATABASE_URL: await cluster.createDatabase('porchlight_bench'),
  SITE_PUBLIC_URL: `http://127.0.0.1:${portB}`,
  PUSH_POLL_SECONDS: '300',
  PAGE_CACHE_SECONDS: '1',
  HISTORY_BACKFILL_PAGES: '0',
  SUBSCRIPTIONS: 'false',
};
const b = await startPorchlight(api.url, api.key, 300, { ...env, PORT: String(portB) });
const c = await startPorchlight(api.url, api.key, 300, { ...env, PORT: String(await freePort()) });
try {
  const page = (await client.statusPages.list()).data.find((candidate) => candidate.slug === 'acme');
  const monitorId = page?.monitors[0]?.monitorId;
  if (!monitorId) throw new Error('the demo page acme has no monitor');
  for (const site of [b, c]) await shownAfter(`${site.url}/acme`, '</html>', performance.now());
  // The push channel set up by B (and found unchanged by C) before the first trial.
  const since = performance.now();
  for (;;) {
    let found = false;
    for await (const channel of client.notifications.listAll()) found ||= isPorchlightPushUrl(channel.webhookUrl);
    if (found) break;
    if (performance.now() - since > GIVE_UP_MS) throw new Error('no push channel');
    await sleep(100);
  }
  const onB: number[] = [];
  const onC: number[] = [];
  for (let trial = 1; trial <= TRIALS; trial += 1) {
    const title = `Fan-out bench ${trial}: checkout errors`;
    const createdAt = performance.now();
    const incident = await client.incidents.create({ monitorIds: [monitorId], title, message: 'Looking into it.', severity: 'major' });
    const [atB, atC] = await Promise.all([shownAfter(`${b.url}/acme`, title, createdAt), shownAfter(`${c.url}/acme`, title, createdAt)]);
    onB.push(atB);
    onC.push(atC);
    await client.incidents.delete(incident.id);
    await sleep(1_100);
  }
  const stats = (values: number[]) => ({ p50: percentile(values, 50) / 1000, p95: percentile(values, 95) / 1000, max: Math.max(...values) / 1000 });
  const result = { trials: TRIALS, receivingReplica: stats(onB), otherReplica: stats(onC), samplesMs: { onB, onC } };
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results/fanout-latency.json'), JSON.stringify(result, null, 2));
  const row = (name: string, s: { p50: number; p95: number; max: number }) => `| ${name} | ${s.p50.toFixed(2)} s | ${s.p95.toFixed(2)} s | ${s.max.toFixed(2)} s |`;
  console.log(
    [
      `Measured ${new Date().toISOString()} (${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}), ${TRIALS} incidents, created → visible:`,
      '',
      '| Replica | p50 | p95 | max |',
      '|---|---|---|---|',
      row('B (receives the push)', result.receivingReplica),
      row('C (told through the fan-out)', result.otherReplica),
    ].join('\n'),
  );
} finally {
  await Promise.all([b.stop(), c.stop()]);
  await api.stop();
  await client.close();
  cluster.stop();
  await rm(dir, { recursive: true, force: true });
}

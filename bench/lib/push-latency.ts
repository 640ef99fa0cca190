/**
 * How soon a visitor sees an incident: the time from an incident created (then an update
 * posted) through the API until the page shows it, with push and without (polling, bound by the
 * data's freshness). Two APIs and two sites, so the two columns never share an event:
 * - with push: Porchlight told its public address (SITE_PUBLIC_URL), so the API's webhook
 *   reaches it; trials one after another, each event at least 1.1 s after the previous one (a
 *   second event within the same second waits for the once-a-second refresh bound);
 * - without push: the same site with PUSH_UPDATES=false; trials started every
 *   freshness/trials seconds, and updates posted as far apart, so both fall evenly across the
 *   freshness period.
 * The page is polled every 25 ms from this process, as a visitor reloading would.
 */
import { createServer } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { startApi, startPorchlight, type Running } from './processes.ts';

export interface LatencySamples {
  createdMs: number[];
  updatedMs: number[];
}

export interface PushLatencyResult {
  trials: number;
  freshSeconds: number;
  pageCacheSeconds: number;
  withPush: LatencySamples;
  withoutPush: LatencySamples;
}

const POLL_MS = 25;
/** Each push refreshes the data (13 requests): a trial a few seconds apart exceeds the demo plan's 600 a minute. */
const UNLIMITED = { RATE_LIMIT_PRO: '100000' };
const EVENT_SPACING_MS = 1_100;
const GIVE_UP_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** A loopback port free right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Milliseconds from `since` until the page at `url` contains `text`. */
async function shownAfter(url: string, text: string, since: number): Promise<number> {
  while (performance.now() - since < GIVE_UP_MS) {
    const answer = await request(url, { headers: { 'accept-encoding': 'identity' } });
    if ((await answer.body.text()).includes(text)) return performance.now() - since;
    await sleep(POLL_MS);
  }
  throw new Error(`"${text}" did not show on ${url} within ${GIVE_UP_MS / 1000} s`);
}

async function firstMonitorOfAcme(client: ApiClient): Promise<string> {
  for await (const page of client.statusPages.listAll()) {
    if (page.slug === 'acme' && page.monitors[0]) return page.monitors[0].monitorId;
  }
  throw new Error('the demo page acme has no monitor');
}

/** One trial: create an incident, see it on the page; post an update, see it on the incident's page. */
async function trial(client: ApiClient, siteUrl: string, monitorId: string, label: string, spacingMs: number): Promise<{ created: number; updated: number }> {
  const title = `Bench ${label}: checkout errors`;
  const createdAt = performance.now();
  const incident = await client.incidents.create({ monitorIds: [monitorId], title, message: 'Looking into it.', severity: 'major' });
  const created = await shownAfter(`${siteUrl}/acme`, title, createdAt);
  await sleep(spacingMs);
  const message = `Bench ${label}: rolled back the deploy.`;
  const updatedAt = performance.now();
  await client.incidents.update(incident.id, { status: 'identified', message });
  const updated = await shownAfter(`${siteUrl}/acme/incidents/${incident.id}`, message, updatedAt);
  // Deleting sends no event: the next trial starts from a quiet page.
  await client.incidents.delete(incident.id);
  return { created, updated };
}

async function withPush(trials: number, freshSeconds: number, dir: string, processes: Running[]): Promise<LatencySamples> {
  const api = await startApi(path.join(dir, 'push.db'), UNLIMITED);
  processes.push(api);
  const port = await freePort();
  const site = await startPorchlight(api.url, api.key, freshSeconds, { PORT: String(port), SITE_PUBLIC_URL: `http://127.0.0.1:${port}` });
  processes.push(site);
  const client = createClient({ baseUrl: api.url, apiKey: api.key, maxRetries: 0 });
  try {
    // The channel is set up in the background at start: wait for it, and for the first data.
    for (let waited = 0; !site.lines.some((line) => line.includes('"event":"push-channel"')); waited += 100) {
      if (waited > 20_000) throw new Error('the push channel was not set up');
      await sleep(100);
    }
    await shownAfter(`${site.url}/acme`, '</html>', performance.now());
    const monitorId = await firstMonitorOfAcme(client);
    const samples: LatencySamples = { createdMs: [], updatedMs: [] };
    for (let index = 0; index < trials; index += 1) {
      await sleep(EVENT_SPACING_MS);
      const { created, updated } = await trial(client, site.url, monitorId, `push ${index + 1}`, EVENT_SPACING_MS);
      samples.createdMs.push(created);
      samples.updatedMs.push(updated);
    }
    return samples;
  } finally {
    await client.close();
  }
}

async function withoutPush(trials: number, freshSeconds: number, dir: string, processes: Running[]): Promise<LatencySamples> {
  const api = await startApi(path.join(dir, 'poll.db'), UNLIMITED);
  processes.push(api);
  const site = await startPorchlight(api.url, api.key, freshSeconds, { PUSH_UPDATES: 'false' });
  processes.push(site);
  const client = createClient({ baseUrl: api.url, apiKey: api.key, maxRetries: 0 });
  try {
    await shownAfter(`${site.url}/acme`, '</html>', performance.now());
    const monitorId = await firstMonitorOfAcme(client);
    const stagger = (freshSeconds * 1000) / trials;
    const results = await Promise.all(
      Array.from({ length: trials }, async (_, index) => {
        await sleep(index * stagger);
        // The update too falls at a different point of the freshness period in each trial.
        return trial(client, site.url, monitorId, `poll ${index + 1}`, EVENT_SPACING_MS + index * stagger);
      }),
    );
    return { createdMs: results.map((result) => result.created), updatedMs: results.map((result) => result.updated) };
  } finally {
    await client.close();
  }
}

export async function measurePushLatency(options: { trials: number; freshSeconds: number }): Promise<PushLatencyResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-bench-push-'));
  const processes: Running[] = [];
  try {
    const [pushed, polled] = await Promise.all([
      withPush(options.trials, options.freshSeconds, dir, processes),
      withoutPush(options.trials, options.freshSeconds, dir, processes),
    ]);
    return { trials: options.trials, freshSeconds: options.freshSeconds, pageCacheSeconds: 5, withPush: pushed, withoutPush: polled };
  } finally {
    for (const running of processes) await running.stop();
  }
}

/**
 * How soon a visitor sees an incident: the time from an incident created (then an update
 * posted) through the API until the page shows it, with push and without (polling, bound by the
 * data's freshness). Two APIs and two sites, so the two columns never share an event:
 * - with push: Porchlight told its public address (SITE_PUBLIC_URL), so the API's webhook
 *   reaches it; trials one after another, each event at least 1.1 s after the previous one (a
 *   second event within the same second waits for the once-a-second refresh bound). Nothing
 *   polls: once the site says it has re-rendered its recently asked-for pages from the new data
 *   (its debug line), ONE request is made, and the time is taken when it answers; whether that
 *   first request already showed the change is counted (if not, polling takes over);
 * - without push: the same site with PUSH_UPDATES=false; trials started every
 *   freshness/trials seconds, and updates posted as far apart, so both fall evenly across the
 *   freshness period.
 * The page is polled every 25 ms from this process, as a visitor reloading would.
 */
import { freePort } from './free-port.ts';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { startApi, startPorchlight, type Running } from './processes.ts';

export interface LatencySamples {
  createdMs: number[];
  updatedMs: number[];
  /** With push: events whose first request after the site's new data showed them, of all events. */
  firstRequest?: { shown: number; of: number };
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

/** Milliseconds from `since` until the page at `url` contains `text`. */
async function shownAfter(url: string, text: string, since: number): Promise<number> {
  while (performance.now() - since < GIVE_UP_MS) {
    const answer = await request(url, { headers: { 'accept-encoding': 'identity' } });
    if ((await answer.body.text()).includes(text)) return performance.now() - since;
    await sleep(POLL_MS);
  }
  throw new Error(`"${text}" did not show on ${url} within ${GIVE_UP_MS / 1000} s`);
}

/** The front's debug line once the recently asked-for pages are re-rendered from new data. */
const REWARMED = 'recently requested pages for data version';

/**
 * Milliseconds from `since` until the first request made after the site re-rendered from new
 * data answers; whether it showed `text` (else the page is polled until it does).
 */
async function shownOnFirstRequest(site: Running, url: string, text: string, since: number, fromLine: number): Promise<{ ms: number; first: boolean }> {
  while (!site.lines.slice(fromLine).some((line) => line.includes(REWARMED))) {
    if (performance.now() - since > GIVE_UP_MS) throw new Error(`the site did not re-render for new data within ${GIVE_UP_MS / 1000} s`);
    await sleep(2);
  }
  const answer = await request(url, { headers: { 'accept-encoding': 'identity' } });
  if ((await answer.body.text()).includes(text)) return { ms: performance.now() - since, first: true };
  return { ms: await shownAfter(url, text, since), first: false };
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

/** A push trial: nothing polls; the first request after the site's re-render is the one timed. */
async function pushTrial(client: ApiClient, site: Running & { url: string }, monitorId: string, label: string): Promise<{ created: number; updated: number; first: number }> {
  const title = `Bench ${label}: checkout errors`;
  let fromLine = site.lines.length;
  const createdAt = performance.now();
  const incident = await client.incidents.create({ monitorIds: [monitorId], title, message: 'Looking into it.', severity: 'major' });
  const created = await shownOnFirstRequest(site, `${site.url}/acme`, title, createdAt, fromLine);
  // A visitor reads the incident's page: it is stored, and recently asked for.
  const incidentUrl = `${site.url}/acme/incidents/${incident.id}`;
  await (await request(incidentUrl)).body.dump();
  await sleep(EVENT_SPACING_MS);
  const message = `Bench ${label}: rolled back the deploy.`;
  fromLine = site.lines.length;
  const updatedAt = performance.now();
  await client.incidents.update(incident.id, { status: 'identified', message });
  const updated = await shownOnFirstRequest(site, incidentUrl, message, updatedAt, fromLine);
  await client.incidents.delete(incident.id);
  return { created: created.ms, updated: updated.ms, first: Number(created.first) + Number(updated.first) };
}

async function withPush(trials: number, freshSeconds: number, dir: string, processes: Running[]): Promise<LatencySamples> {
  const api = await startApi(path.join(dir, 'push.db'), UNLIMITED);
  processes.push(api);
  const port = await freePort();
  const site = await startPorchlight(api.url, api.key, freshSeconds, { PORT: String(port), SITE_PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'debug' });
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
    const firstRequest = { shown: 0, of: 0 };
    const samples: LatencySamples = { createdMs: [], updatedMs: [], firstRequest };
    for (let index = 0; index < trials; index += 1) {
      await sleep(EVENT_SPACING_MS);
      const { created, updated, first } = await pushTrial(client, site, monitorId, `push ${index + 1}`);
      samples.createdMs.push(created);
      samples.updatedMs.push(updated);
      firstRequest.shown += first;
      firstRequest.of += 2;
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

/**
 * `node bench/cards.ts` (after `npm run build`): does drawing status cards slow the pages down?
 * The demo page under load from wrk, side by side in one run: with the data changing every second
 * (a new incident each second, so every card differs and must be drawn again), alone, while a
 * client asks for the SVG badge and favicon nonstop (the control: the same extra requests and
 * Astro renders, no drawing), and while it asks for the card and the PNG favicon nonstop (each
 * new data version makes one real drawing). Cards are drawn on libuv's pool from the site's worker thread; the
 * front thread only sends stored bytes, so page throughput should hardly move. Also the cost
 * of one card drawn in this process, uncached. Loopback only, about a minute and a half. Prints JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { renderCardSvg } from '../src/site/outputs/card.ts';
import { forgetRenderedPngs, svgToPng } from '../src/site/outputs/svg-png.ts';
import { everySecond, type Churn } from './lib/churn.ts';
import { median, runLoad, type LoadResult } from './lib/load.ts';
import { startApi, startPorchlight } from './lib/processes.ts';

const RUNS = 2;
const SECONDS = 5;
const CONNECTIONS = 50;

/** A new active incident every second: the card's "and N more" changes each time. */
function startIncidents(apiUrl: string, apiKey: string, monitorId: string): Churn {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  return everySecond(async (created) => {
    const response = await request(`${apiUrl}/incidents`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ monitorIds: [monitorId], title: `Bench incident ${created + 1}`, message: 'Bench.', severity: 'minor' }),
    });
    await response.body.dump();
    return response.statusCode < 300;
  });
}

/** Asks for `outputs` back to back until stopped; counts the distinct versions of the first seen. */
function startReader(siteUrl: string, outputs: readonly string[]): { stop(): Promise<{ requests: number; distinctVersions: number; slowestMs: number }> } {
  let running = true;
  let requests = 0;
  let slowestMs = 0;
  const etags = new Set<string>();
  const loop = (async () => {
    while (running) {
      for (const output of outputs) {
        const started = performance.now();
        const response = await request(`${siteUrl}/acme/${output}`);
        await response.body.arrayBuffer();
        slowestMs = Math.max(slowestMs, performance.now() - started);
        requests += 1;
        if (output === outputs[0]) etags.add(String(response.headers.etag));
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { requests, distinctVersions: etags.size, slowestMs: Math.round(slowestMs) };
    },
  };
}

async function cardCostMs(): Promise<number> {
  const input = { pageName: 'Acme Cloud Status', brandColor: '#5b21b6', tone: 'partial-outage' as const, statusLabel: 'Partial outage', activeTitles: ['Payment processing failures'], updated: '25 Nov 2026, 10:00 UTC', staleAsOf: null };
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    forgetRenderedPngs();
    const started = performance.now();
    await svgToPng(renderCardSvg({ ...input, activeTitles: [`${input.activeTitles[0]} ${i}`] }));
    times.push(performance.now() - started);
  }
  return Math.round(median(times));
}

const summary = (results: LoadResult[]) => ({ requestsPerSecond: Math.round(median(results.map((r) => r.requestsPerSecond))), p99Ms: median(results.map((r) => r.p99Ms)), errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0) });

const dbDir = await mkdtemp(path.join(tmpdir(), 'porchlight-cards-'));
const api = await startApi(path.join(dbDir, 'bench.db'));
const site = await startPorchlight(api.url, api.key, 1, { PAGE_CACHE_SECONDS: '1' });
try {
  const pages = await request(`${api.url}/status-pages`, { headers: { authorization: `Bearer ${api.key}` } });
  const acme = ((await pages.body.json()) as { data: { slug: string; monitors: { monitorId: string }[] }[] }).data.find((page) => page.slug === 'acme');
  if (!acme?.monitors[0]) throw new Error('no demo page');
  const incidents = startIncidents(api.url, api.key, acme.monitors[0].monitorId);
  await runLoad(`${site.url}/acme/`, CONNECTIONS, 2); // warm-up
  // The control asks for SVG outputs as often (badge, favicon): re-rendered by Astro on each data
  // version like the card, but never drawn by resvg. The difference is the cost of drawing.
  const rows = { pageAlone: [] as LoadResult[], whileSvgOutputsRender: [] as LoadResult[], whileCardsRender: [] as LoadResult[] };
  const readers: Record<string, Awaited<ReturnType<ReturnType<typeof startReader>['stop']>>[]> = { svg: [], cards: [] };
  for (let run = 0; run < RUNS; run += 1) {
    rows.pageAlone.push(await runLoad(`${site.url}/acme/`, CONNECTIONS, SECONDS));
    const svg = startReader(site.url, ['badge.svg', 'favicon.svg']);
    rows.whileSvgOutputsRender.push(await runLoad(`${site.url}/acme/`, CONNECTIONS, SECONDS));
    readers.svg!.push(await svg.stop());
    const cards = startReader(site.url, ['card.png', 'favicon.png']);
    rows.whileCardsRender.push(await runLoad(`${site.url}/acme/`, CONNECTIONS, SECONDS));
    readers.cards!.push(await cards.stop());
  }
  const created = await incidents.stop();
  console.log(JSON.stringify({
    note: 'loopback, wrk -t1 -c50, shared 2-core machine: compare the two rows of one run only',
    connections: CONNECTIONS,
    seconds: SECONDS,
    runs: RUNS,
    incidentsCreated: created,
    pageAlone: summary(rows.pageAlone),
    pageWhileSvgOutputsRender: summary(rows.whileSvgOutputsRender),
    pageWhileCardsRender: summary(rows.whileCardsRender),
    readers,
    oneCardUncachedMs: await cardCostMs(),
  }, null, 2));
} finally {
  await site.stop();
  await api.stop();
  await rm(dbDir, { recursive: true, force: true });
}

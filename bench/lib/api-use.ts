/**
 * API requests the site makes at the largest organization: a second organization (created in
 * the embedded store with the create-org command) with 50 HTTP monitors on one public page, all
 * checking a loopback server of this process; Porchlight pointed at it through a counting proxy
 * (STATUS_API_URL, STATUS_API_KEY, and SITE_PUBLIC_URL for push); a visitor every 5 s.
 * Situations, each with a fresh site measured after its warm-up:
 * - idle: every monitor paused, nothing changes (push on, then off);
 * - checked: every monitor checked once a minute, all healthy (push on, then off);
 * - outage: the loopback server starts failing and all 50 monitors go down within a minute
 *   (FAILURE_THRESHOLD=1, push on): requests in the first 90 s, and how soon the page showed
 *   the first and the fiftieth monitor down.
 * The API's rate limits are lifted so the figures are the site's demand, not what a 429 let through.
 */
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { startApiProxy, type ApiProxy } from '../../test/e2e/support/api-proxy.ts';
import { freePort } from './free-port.ts';
import { root, startApi, startPorchlight } from './processes.ts';

export const MONITORS = 50;
const SLUG = 'bench50';
const VISIT_EVERY_MS = 5_000;
const OUTAGE_WINDOW_MS = 90_000;

export interface ApiUseOptions {
  /** Seconds each idle and checked situation is measured (after its warm-up). */
  measureSeconds: number;
  warmSeconds: number;
  /** Where the site's code is run from (another checkout, to measure "before"); this one by default. */
  siteRoot?: string;
}

export interface Situation {
  name: string;
  push: boolean;
  seconds: number;
  requests: number;
  perMinute: number;
  /** Requests by kind: lists, check pages, other (the push channel). */
  lists: number;
  checkPages: number;
}

export interface OutageResult extends Situation {
  /** Seconds from the loopback server failing until the page showed the first / the last monitor down. */
  firstDownSeconds: number | null;
  allDownSeconds: number | null;
}

export interface ApiUseResult {
  monitors: number;
  freshSeconds: number;
  situations: Situation[];
  outage: OutageResult;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback server the monitors check: healthy until told to fail. */
async function target(): Promise<{ url: string; failing: boolean; server: Server }> {
  const state = { url: '', failing: false, server: createHttpServer((_request, response) => {
    response.writeHead(state.failing ? 503 : 200, { 'content-type': 'text/plain' }).end(state.failing ? 'down\n' : 'ok\n');
  }) };
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/`;
  return state;
}

function classify(entries: readonly { request: string }[]): { lists: number; checkPages: number } {
  const checkPages = entries.filter((entry) => /^GET \/api\/v1\/monitors\/[^/?]+\/checks/.test(entry.request)).length;
  const lists = entries.filter((entry) => /^GET \/api\/v1\/(organization|status-pages|monitors|incidents|maintenance)(\?|$)/.test(entry.request)).length;
  return { lists, checkPages };
}

/** Statuspage components of the page that are major_outage (a visitor's request, not the API's). */
async function downCount(siteUrl: string): Promise<number> {
  try {
    const answer = await request(`${siteUrl}/${SLUG}/api/v2/components.json`);
    const body = (await answer.body.json()) as { components?: { status: string }[] };
    return (body.components ?? []).filter((component) => component.status === 'major_outage').length;
  } catch {
    return 0;
  }
}

async function withSite<T>(
  setup: { proxy: ApiProxy; key: string; push: boolean; freshSeconds: number; siteRoot: string | undefined; api: ApiClient },
  work: (siteUrl: string) => Promise<T>,
): Promise<T> {
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    PUSH_UPDATES: String(setup.push),
    SITE_PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  const site = await startPorchlight(setup.proxy.url, setup.key, setup.freshSeconds, env, setup.siteRoot);
  let visiting = true;
  const visitor = (async () => {
    while (visiting) {
      await request(`${site.url}/${SLUG}`).then((answer) => answer.body.dump(), () => undefined);
      await sleep(VISIT_EVERY_MS);
    }
  })();
  try {
    return await work(site.url);
  } finally {
    visiting = false;
    await visitor;
    await site.stop();
    // The site's push channel would post to a port nobody listens on any more.
    for await (const channel of setup.api.notifications.listAll()) await setup.api.notifications.delete(channel.id);
  }
}

export async function measureApiUse(options: ApiUseOptions): Promise<ApiUseResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'porchlight-bench-api-use-'));
  const databasePath = path.join(dir, 'api.db');
  const freshSeconds = 30;
  const checks = await target();
  const api = await startApi(databasePath, {
    SCHEDULER: 'true',
    FAILURE_THRESHOLD: '1',
    // Loopback targets are this benchmark's own (the egress policy refuses them otherwise).
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_FREE: '1000000',
    RATE_LIMIT_PRO: '1000000',
  });
  const key = execFileSync(path.join(root, 'node_modules/.bin/node'), ['src/service/cli/create-org.ts', 'Largest organization', 'free'], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: databasePath },
    encoding: 'utf8',
  }).trim();
  const client = createClient({ baseUrl: api.url, apiKey: key });
  const proxy = await startApiProxy(api.url);
  try {
    const monitors = [];
    for (let index = 0; index < MONITORS; index += 1) {
      const monitor = await client.monitors.create({ name: `Service ${index + 1}`, type: 'http', url: `${checks.url}s${index}`, interval: 60 });
      // Paused until the situations that check them.
      await client.monitors.update(monitor.id, { active: false });
      monitors.push(monitor);
    }
    await client.statusPages.create({ name: 'Fifty services', slug: SLUG, isPublic: true, monitors: monitors.map((monitor) => ({ monitorId: monitor.id })) });
    const setup = { proxy, key, freshSeconds, siteRoot: options.siteRoot, api: client };

    const measure = async (name: string, push: boolean): Promise<Situation> =>
      withSite({ ...setup, push }, async () => {
        await sleep(options.warmSeconds * 1000);
        const from = proxy.log.length;
        await sleep(options.measureSeconds * 1000);
        const entries = proxy.log.slice(from);
        return { name, push, seconds: options.measureSeconds, requests: entries.length, perMinute: Math.round((entries.length * 60) / options.measureSeconds), ...classify(entries) };
      });

    const situations: Situation[] = [];
    situations.push(await measure('idle: every monitor paused', true));
    situations.push(await measure('idle: every monitor paused', false));
    for (const monitor of monitors) await client.monitors.update(monitor.id, { active: true });
    situations.push(await measure('each monitor checked once a minute, all healthy', true));
    situations.push(await measure('each monitor checked once a minute, all healthy', false));

    const outage = await withSite({ ...setup, push: true }, async (siteUrl): Promise<OutageResult> => {
      await sleep(options.warmSeconds * 1000);
      const from = proxy.log.length;
      const started = performance.now();
      checks.failing = true;
      let firstDown: number | null = null;
      let allDown: number | null = null;
      while (performance.now() - started < OUTAGE_WINDOW_MS) {
        const down = await downCount(siteUrl);
        const at = (performance.now() - started) / 1000;
        if (down > 0 && firstDown === null) firstDown = at;
        if (down >= MONITORS && allDown === null) allDown = at;
        await sleep(250);
      }
      const entries = proxy.log.slice(from);
      const seconds = OUTAGE_WINDOW_MS / 1000;
      return {
        name: `${MONITORS}-monitor outage, first 90 s`,
        push: true,
        seconds,
        requests: entries.length,
        perMinute: Math.round((entries.length * 60) / seconds),
        ...classify(entries),
        firstDownSeconds: firstDown === null ? null : Math.round(firstDown * 10) / 10,
        allDownSeconds: allDown === null ? null : Math.round(allDown * 10) / 10,
      };
    });
    return { monitors: MONITORS, freshSeconds, situations, outage };
  } finally {
    await proxy.close();
    await client.close();
    await api.stop();
    await new Promise((resolve) => checks.server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Against an API that announces only the spec's eight events, page changes still show within
 * CACHE_FRESH_SECONDS + 2 s (the site reads its pages list that often even while push works), a
 * page created a moment ago is served on its first visit (an unknown slug asks for the list), and
 * a thousand requests for unknown slugs cost at most one read of the list per 10 s, counted at the
 * API. The API is another Porchlight's embedded one; a relay in front of the site's push route
 * drops its page-change announcements, so the site hears only the eight events.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, request } from 'undici';
import { test, expect } from '@playwright/test';
import type { ApiClient } from '../../src/api/index.ts';
import { freePort } from '../../bench/lib/free-port.ts';
import { apiFor, demoPage } from './support/api.ts';
import { startApiProxy, type ApiProxy } from './support/api-proxy.ts';
import { expectGoneEverywhere, getFrom, tlsAllowed, visitAll } from './support/page-gone.ts';
import { logFields, startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';

test.describe.configure({ mode: 'serial' });

const FRESH_SECONDS = 3;
const PAGES_LIST = /^GET \/api\/v1\/status-pages(\?|$)/;

let host: PorchlightProcess;
let proxy: ApiProxy;
let api: ApiClient;

/** Passes the API's pushes on to the site, except the page changes only Porchlight's own API sends. */
async function startEightEventRelay(siteOrigin: () => string): Promise<{ url: string; dropped: number; passed: number; close(): Promise<void> }> {
  const relay = { url: '', dropped: 0, passed: 0, close: async () => undefined };
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const event = String(incoming.headers['x-porchlight-event'] ?? '');
      if (!/^on(Monitor|Incident|Maintenance)[A-Za-z]+$/.test(event)) {
        relay.dropped += 1;
        outgoing.writeHead(202).end();
        return;
      }
      relay.passed += 1;
      const answer = await request(`${siteOrigin()}${incoming.url ?? '/'}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-porchlight-event': event }, body: Buffer.concat(chunks) });
      await answer.body.dump();
      outgoing.writeHead(answer.statusCode).end();
    })().catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relay.close = () =>
    new Promise<undefined>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve(undefined));
    });
  return relay;
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  // The relay is on loopback: the API's egress policy must allow it.
  host = await startPorchlightProcess({ SCHEDULER: 'false', ALLOW_PRIVATE_TARGETS: 'true' });
  proxy = await startApiProxy(host.apiUrl);
  api = apiFor(host);
});

test.afterAll(async () => {
  await api?.close();
  await proxy?.close();
  await host?.stop();
});

test(`with push working but no page events, a page shows on its first visit, and changes within CACHE_FRESH_SECONDS + 2 s`, async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const relay = await startEightEventRelay(() => `http://127.0.0.1:${port}`);
  const site = await startPorchlightProcess({
    STATUS_API_URL: proxy.url,
    STATUS_API_KEY: host.apiKey,
    PORT: String(port),
    SITE_PUBLIC_URL: relay.url,
    CACHE_FRESH_SECONDS: String(FRESH_SECONDS),
    PUSH_POLL_SECONDS: '300',
    PAGE_CACHE_SECONDS: '60',
    HISTORY_BACKFILL_PAGES: '0',
  });
  const bound = (FRESH_SECONDS + 2) * 1000;
  let id: string | null = null;
  try {
    await expect.poll(() => site.output.some((line) => logFields(line)?.event === 'push-channel' && logFields(line)?.outcome !== 'failure'), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => (await getFrom(site.siteUrl, '/acme/')).status, { timeout: 10_000 }).toBe(200);
    const monitorId = (await demoPage(api)).monitors[0]!.monitorId;
    const fresh = { slug: 'relayed-page', domain: 'relayed.example.test', monitorId };
    const page = `/${fresh.slug}/`;

    id = (await api.statusPages.create({ name: 'Relayed page', slug: fresh.slug, customDomain: fresh.domain, isPublic: true, monitors: [{ monitorId }] })).id;
    // The very first visit: the unknown slug asks for the pages list before answering.
    expect((await getFrom(site.siteUrl, page)).status).toBe(200);
    expect(await tlsAllowed(site.siteUrl, fresh.domain)).toBe(200);

    const changes: Record<string, number> = {};
    const timed = async (what: string, change: () => Promise<unknown>, check: () => Promise<boolean>) => {
      const started = performance.now();
      await change();
      await expect.poll(check, { intervals: [100], timeout: bound }).toBe(true);
      changes[what] = performance.now() - started;
    };
    await timed('restyled', () => api.statusPages.update(id!, { customCss: '.relayed-marker { color: teal; }' }), async () => (await getFrom(site.siteUrl, page)).body.includes('relayed-marker'));
    await visitAll(site.siteUrl, fresh);
    await timed('hidden', () => api.statusPages.update(id!, { isPublic: false }), async () => (await getFrom(site.siteUrl, page)).status === 404);
    await expectGoneEverywhere(site.siteUrl, fresh);

    await api.statusPages.update(id, { isPublic: true });
    await expect.poll(async () => (await getFrom(site.siteUrl, page)).status, { timeout: bound }).toBe(200);
    await expect.poll(() => tlsAllowed(site.siteUrl, fresh.domain), { timeout: bound }).toBe(200);
    await visitAll(site.siteUrl, fresh);
    await timed('deleted', () => api.statusPages.delete(id!), async () => (await getFrom(site.siteUrl, page)).status === 404);
    id = null;
    await expectGoneEverywhere(site.siteUrl, fresh);

    // The site heard none of the page changes: the pages list read every CACHE_FRESH_SECONDS did it.
    expect(relay.dropped).toBeGreaterThanOrEqual(5);
    expect(site.output.some((line) => logFields(line)?.kind === 'onStatusPageChanged')).toBe(false);
    for (const [what, ms] of Object.entries(changes)) expect(ms, what).toBeLessThan(bound);
    console.log(`with only the eight events (CACHE_FRESH_SECONDS=${FRESH_SECONDS}): ${Object.entries(changes).map(([what, ms]) => `${what} ${Math.round(ms)} ms`).join(', ')}`);
  } finally {
    if (id) await api.statusPages.delete(id).catch(() => undefined);
    await site.stop();
    await relay.close();
    for await (const channel of api.notifications.listAll()) if (channel.name.startsWith('Porchlight live updates (')) await api.notifications.delete(channel.id);
  }
});

test('1,000 requests for unknown slugs read the pages list at most once per 10 s', async () => {
  test.setTimeout(120_000);
  // Freshness of five minutes and no push: nothing else reads the pages list meanwhile.
  const site = await startPorchlightProcess({ STATUS_API_URL: proxy.url, STATUS_API_KEY: host.apiKey, PUSH_UPDATES: 'false', CACHE_FRESH_SECONDS: '300' });
  const pool = new Pool(site.siteUrl, { connections: 20 });
  try {
    await expect.poll(async () => (await getFrom(site.siteUrl, '/acme/')).status, { timeout: 10_000 }).toBe(200);
    const from = proxy.log.length;
    const started = performance.now();
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 1_000) {
          const index = next++;
          const answer = await pool.request({ method: 'GET', path: `/made-up-${index}/` });
          await answer.body.dump();
          statuses.push(answer.statusCode);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const reads = proxy.log.slice(from).filter((entry) => PAGES_LIST.test(entry.request)).length;
    expect(statuses.length).toBe(1_000);
    expect(statuses.every((status) => status === 404)).toBe(true);
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(Math.floor(seconds / 10) + 1);
    console.log(`1,000 unknown slugs in ${seconds.toFixed(1)} s: ${reads} reads of the pages list, ${proxy.log.length - from} API requests in all`);
  } finally {
    await pool.close();
    await site.stop();
  }
});

test('over plain HTTP, a custom domain added a moment ago is served on its first visit; unknown Hosts read the pages list at most once per 10 s', async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  // The main host is known, so any other Host is a name the data may not hold yet; no push, and
  // a freshness of five minutes: only the unknown names' ask reads the pages list meanwhile.
  const site = await startPorchlightProcess({ STATUS_API_URL: proxy.url, STATUS_API_KEY: host.apiKey, PORT: String(port), SITE_PUBLIC_URL: `http://127.0.0.1:${port}`, PUSH_UPDATES: 'false', CACHE_FRESH_SECONDS: '300' });
  const monitorId = (await demoPage(api)).monitors[0]!.monitorId;
  let id: string | null = null;
  const pool = new Pool(site.siteUrl, { connections: 10 });
  try {
    await expect.poll(async () => (await getFrom(site.siteUrl, '/acme/')).status, { timeout: 10_000 }).toBe(200);
    id = (await api.statusPages.create({ name: 'Plain HTTP domain page', slug: 'plain-http-domain', customDomain: 'plain.example.test', isPublic: true, monitors: [{ monitorId }] })).id;
    const first = await getFrom(site.siteUrl, '/', 'plain.example.test');
    expect(first.status).toBe(200);
    expect(first.body).toContain('Plain HTTP domain page');

    // Names that are nobody's domain are answered as the main host, and ask at most once per 10 s in all.
    const from = proxy.log.length;
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const answer = await pool.request({ method: 'GET', path: '/', headers: { host: `made-up-${index}.example.test` } });
        await answer.body.dump();
        return answer.statusCode;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const reads = proxy.log.slice(from).filter((entry) => PAGES_LIST.test(entry.request)).length;
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(reads).toBeLessThanOrEqual(Math.floor(seconds / 10) + 1);
  } finally {
    await pool.close();
    if (id) await api.statusPages.delete(id).catch(() => undefined);
    await site.stop();
  }
});

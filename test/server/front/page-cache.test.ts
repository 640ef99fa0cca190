import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPageCache, type RenderContext } from '../../../src/server/front/page-cache.ts';
import { createSitePool, type SitePool } from '../../../src/server/front/site-pool.ts';
import { DATA_VERSION_HEADER } from '../../../src/site/data/data-version.ts';

const site = { status: 200, cacheControl: 'public, max-age=30', version: '1', renders: 0 };
let server: Server;
let pool: SitePool;
const clock = { now: 1_000_000 };
const renders: (number | 'error')[] = [];

beforeEach(async () => {
  Object.assign(site, { status: 200, cacheControl: 'public, max-age=30', version: '1', renders: 0 });
  renders.length = 0;
  clock.now = 1_000_000;
  server = createServer((request, response) => {
    site.renders += 1;
    response.writeHead(site.status, { 'content-type': 'text/html', 'cache-control': site.cacheControl, [DATA_VERSION_HEADER]: site.version });
    response.end(`<p>${request.headers.host} ${request.url} v${site.version}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pool = createSitePool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 4, timeoutMs: 5_000, maxBytes: 100_000 });
});

afterEach(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function pageCache() {
  return createPageCache({ pool, freshMs: 5_000, maxStaleMs: 60_000, maxEntries: 10, maxBytes: 1_000_000, now: () => clock.now, tick: () => clock.now, onRender: (_seconds, status) => renders.push(status) });
}

const context = (path = '/acme'): RenderContext => ({ key: `status.example.test${path}`, path, host: 'status.example.test' });

describe("the front's page cache", () => {
  it('renders a page once for requests at the same time, and keeps it with what it was rendered for', async () => {
    const { cache, close } = pageCache();
    const pages = await Promise.all([1, 2, 3].map(() => cache.fetch('status.example.test/acme', { context: context() })));
    expect(site.renders).toBe(1);
    expect(pages[0]).toMatchObject({ status: 200, path: '/acme', host: 'status.example.test', dataVersion: '1', servedAt: clock.now });
    expect(renders).toEqual([200]);
    close();
  });

  it('hands an answer it may not store to the request that asked, storing nothing', async () => {
    const { cache, close } = pageCache();
    site.status = 404;
    site.cacheControl = 'no-store';
    const asked = context('/gone');
    expect(await cache.fetch(asked.key, { context: asked })).toBeUndefined();
    expect(asked.uncached?.status).toBe(404);
    expect(cache.size).toBe(0);
    close();
  });

  it('keeps old bytes through a failing re-render only while they are young enough', async () => {
    const { cache, close } = pageCache();
    const first = context();
    await cache.fetch(first.key, { context: first });
    site.status = 500;
    clock.now += 10_000;
    expect((await cache.fetch(first.key, { context: context(), forceRefresh: true, allowStale: false }))?.status).toBe(200);
    clock.now += 60_000;
    expect(await cache.fetch(first.key, { context: context(), forceRefresh: true, allowStale: false })).toBeUndefined();
    close();
  });

  it('re-renders, after new data, the pages asked for recently', async () => {
    const { cache, rewarmFor, close } = pageCache();
    const asked = context();
    await cache.fetch(asked.key, { context: asked });
    site.version = '2';
    await rewarmFor('2');
    expect(site.renders).toBe(2);
    expect(cache.peek(asked.key, { allowStale: true })?.dataVersion).toBe('2');
    close();
  });
});

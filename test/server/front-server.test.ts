import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createFrontHandler, type FrontHandler } from '../../src/server/front/front-server.ts';
import { createPushReceiver } from '../../src/server/push/push-receiver.ts';
import { DATA_VERSION_CHANNEL, DATA_VERSION_HEADER } from '../../src/site/data/data-version.ts';
import { CUSTOM_DOMAINS_CHANNEL } from '../../src/site/data/custom-domains.ts';
import { announcer } from '../../src/site/data/thread-channel.ts';
import { leaveAfter } from './support/leaving-client.ts';

/** A scripted origin standing in for the Astro server: counts renders, answers what the test says. */
interface Origin {
  dataVersion: string | null;
  status: number;
  cacheControl: string;
  body: string;
  renders: number;
  delayMs: number;
  lastHost: string | undefined;
  lastPath: string | undefined;
  lastHeaders: Record<string, string | string[] | undefined>;
  /** Drop the connection instead of answering: a render that throws. */
  hangUp: boolean;
}

let origin: Origin;
let upstream: Server;
let front: FrontHandler;
let frontServer: Server;
let base: string;
let clock: { now: number };

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  origin = { dataVersion: null, status: 200, cacheControl: 'public, max-age=30', body: '<p>v1</p>'.repeat(200), renders: 0, delayMs: 0, lastHost: undefined, lastPath: undefined, lastHeaders: {}, hangUp: false };
  upstream = createServer((incoming, outgoing) => {
    origin.renders += 1;
    origin.lastHost = incoming.headers.host;
    origin.lastPath = incoming.url;
    origin.lastHeaders = incoming.headers;
    if (origin.hangUp) {
      incoming.socket.destroy();
      return;
    }
    setTimeout(() => {
      outgoing.writeHead(origin.status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': origin.cacheControl,
        'x-frame-options': 'DENY',
        ...(origin.dataVersion === null ? {} : { [DATA_VERSION_HEADER]: origin.dataVersion }),
      });
      outgoing.end(origin.body);
    }, origin.delayMs);
  });
  const upstreamUrl = await listen(upstream);
  clock = { now: 1_000_000 };
  front = createFrontHandler({ upstream: upstreamUrl, freshMs: 5_000, maxStaleMs: 60_000, maxEntries: 100, maxBytes: 10_000_000, now: () => clock.now, log: () => undefined });
  frontServer = createServer(front.handle);
  base = await listen(frontServer);
});

afterEach(async () => {
  frontServer.closeAllConnections();
  await new Promise((resolve) => frontServer.close(resolve));
  await front.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

const get = (path: string, headers: Record<string, string> = {}) => request(`${base}${path}`, { headers: { host: 'status.example.test', ...headers } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('front cache', () => {
  it('renders a page once and answers every later request from memory, keeping its headers', async () => {
    for (let index = 0; index < 20; index += 1) {
      const response = await get('/acme');
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(await response.body.text()).toBe(origin.body);
    }
    expect(origin.renders).toBe(1);
    expect(origin.lastHost).toBe('status.example.test');
  });

  it('coalesces concurrent cold requests for one page into one render', async () => {
    origin.delayMs = 50;
    const answers = await Promise.all(Array.from({ length: 30 }, () => get('/acme')));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    await Promise.all(answers.map((answer) => answer.body.dump()));
    expect(origin.renders).toBe(1);
  });

  it('serves the old bytes once stale while one revalidation runs, then the new ones', async () => {
    await (await get('/acme')).body.dump();
    origin.body = '<p>v2</p>';
    clock.now += 6_000;
    expect(await (await get('/acme')).body.text()).toContain('v1');
    // Old bytes until the one revalidation is stored (however slow the machine), never a second render.
    await expect.poll(async () => (await get('/acme')).body.text()).toBe('<p>v2</p>');
    expect(origin.renders).toBe(2);
  });

  it('keeps the old bytes when a revalidation fails (stale-if-error)', async () => {
    await (await get('/acme')).body.dump();
    origin.status = 500;
    origin.cacheControl = 'no-store';
    clock.now += 6_000;
    await (await get('/acme')).body.dump();
    await settle();
    const response = await get('/acme');
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toContain('v1');
  });

  it('drops a page that stopped being cacheable instead of serving it forever', async () => {
    await (await get('/acme')).body.dump();
    origin.status = 404;
    origin.cacheControl = 'no-store';
    origin.body = 'gone';
    clock.now += 6_000;
    await (await get('/acme')).body.dump();
    await settle();
    const response = await get('/acme');
    expect(response.statusCode).toBe(404);
    expect(await response.body.text()).toBe('gone');
  });

  it('never stores answers the site does not mark public', async () => {
    origin.status = 404;
    origin.cacheControl = 'no-store';
    for (let index = 0; index < 3; index += 1) {
      const response = await get('/missing');
      expect(response.statusCode).toBe(404);
      expect(response.headers.etag).toBeUndefined();
      await response.body.dump();
    }
    expect(origin.renders).toBe(3);
  });

  it('answers 304 to a matching If-None-Match, per content coding', async () => {
    const first = await get('/acme', { 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(await first.body.arrayBuffer())).toString()).toBe(origin.body);
    const again = await get('/acme', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=30');
    await again.body.dump();
    const plain = await get('/acme');
    expect(plain.headers.etag).not.toBe(etag);
    expect(plain.headers.vary).toBe('Accept-Encoding');
    await plain.body.dump();
  });

  it('serves brotli when accepted, and identity when gzip and br are refused', async () => {
    const br = await get('/acme', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    await br.body.dump();
    const refused = await get('/acme', { 'accept-encoding': 'gzip;q=0, br;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(await refused.body.text()).toBe(origin.body);
  });

  it('ignores query parameters the site does not read, so cache-busting neither splits nor fills the cache', async () => {
    for (let index = 0; index < 10; index += 1) await (await get(`/acme?utm_source=x&bust=${index}`)).body.dump();
    expect(origin.renders).toBe(1);
    expect(origin.lastPath).toBe('/acme');
    await (await get('/acme/history/2026-10/?bust=1')).body.dump();
    expect(origin.lastPath).toBe('/acme/history/2026-10/');
  });

  it("never lets a client send the static exporter's own headers to the site", async () => {
    const internal = { 'x-porchlight-base-path': '/evil', 'x-porchlight-export': '1' };
    await (await get('/acme', internal)).body.dump();
    expect(origin.lastHeaders).not.toHaveProperty('x-porchlight-base-path');
    await (await request(`${base}/acme`, { method: 'POST', headers: { host: 'status.example.test', ...internal }, body: 'x' })).body.dump();
    expect(origin.lastPath).toBe('/acme');
    expect(origin.lastHeaders).not.toHaveProperty('x-porchlight-base-path');
    expect(origin.lastHeaders).not.toHaveProperty('x-porchlight-export');
  });

  it('passes the old ?month= history address through to the site with its month alone, never from the cache', async () => {
    await (await get('/acme/history?month=2026-10&utm_source=x')).body.dump();
    await (await get('/acme/history?month=2026-10&utm_source=x')).body.dump();
    expect(origin.lastPath).toBe('/acme/history?month=2026-10');
    expect(origin.renders).toBe(2);
  });

  it('keys pages by host and port, so two domains never share bytes (absolute links depend on both)', async () => {
    await (await get('/', { host: 'a.example.test' })).body.dump();
    await (await get('/', { host: 'B.example.test:8080' })).body.dump();
    await (await get('/', { host: 'b.example.test:8080' })).body.dump();
    expect(origin.renders).toBe(2);
    await (await get('/', { host: 'b.example.test' })).body.dump();
    expect(origin.renders).toBe(3);
  });

  it('refuses other methods itself, with 405 and Allow, and never renders for them', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const response = await request(`${base}/acme`, { method, body: 'x', headers: { host: 'status.example.test', 'content-type': 'text/plain' } });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
      await response.body.dump();
    }
    expect(origin.renders).toBe(0);
  });

  it('answers any query string, however long, from the page it belongs to: no render, no entry, nothing of it sent to the site', async () => {
    for (let index = 0; index < 5; index += 1) {
      const response = await get(`/acme?q=${'x'.repeat(3000)}&i=${index}`);
      expect(response.statusCode).toBe(200);
      await response.body.dump();
    }
    expect(origin.renders).toBe(1);
    expect(origin.lastPath).toBe('/acme');
  });

  it('refuses a path longer than 2,048 characters with 414, before rendering anything', async () => {
    const response = await get(`/acme/${'x'.repeat(2_100)}`);
    expect(response.statusCode).toBe(414);
    expect(await response.body.text()).toContain('2048');
    expect(origin.renders).toBe(0);
  });

  it('bounds the renders that visitors who leave can queue: new pages still render soon after', async () => {
    origin.delayMs = 100;
    origin.status = 404;
    origin.cacheControl = 'no-store';
    await Promise.all(Array.from({ length: 300 }, (_, index) => leaveAfter(base, 5, `/acme/incidents/${index}`)));
    // Far fewer renders than requests: once 32 wait, new addresses are answered 503 at once.
    expect(origin.renders).toBeLessThan(100);
    origin.status = 200;
    origin.cacheControl = 'public, max-age=30';
    const started = performance.now();
    const answer = await get('/acme/history/');
    await answer.body.dump();
    expect([200, 503]).toContain(answer.statusCode);
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect.poll(async () => (await get('/acme/history/2026-01/')).statusCode, { timeout: 3_000 }).toBe(200);
  });

  it('answers /healthz and /readyz itself, never asking the site', async () => {
    origin.hangUp = true;
    const health = await get('/healthz?probe=1');
    expect(health.statusCode).toBe(200);
    expect(await health.body.text()).toBe('ok\n');
    // No data announced yet: not ready, and still no render.
    const readiness = await get('/readyz');
    expect(readiness.statusCode).toBe(503);
    await readiness.body.dump();
    expect(origin.renders).toBe(0);
  });

  it('renders a Host with a trailing dot as the host its key names, so both spellings share the same bytes', async () => {
    await (await get('/', { host: 'dotted.example.test.' })).body.dump();
    expect(origin.lastHost).toBe('dotted.example.test');
    await (await get('/', { host: 'dotted.example.test' })).body.dump();
    expect(origin.renders).toBe(1);
  });

  it('keeps old bytes through a render that throws only while they are young enough', async () => {
    await (await get('/acme')).body.dump();
    origin.hangUp = true;
    clock.now += 6_000;
    const young = await get('/acme');
    expect(young.statusCode).toBe(200);
    expect(await young.body.text()).toContain('v1');
    await settle();
    // Past maxStaleMs (60 s) the old bytes are dropped once the failed render settles.
    clock.now += 60_000;
    await (await get('/acme')).body.dump();
    await settle();
    const after = await get('/acme');
    expect(after.statusCode).toBe(502);
    await after.body.dump();
  });

  it('refuses a Host that is not a plain host name, before anything is rendered or stored', async () => {
    for (const host of ['status.example.test:80/history?', 'x:1@evil.test', 'evil.test/x']) {
      const response = await get('/', { host });
      expect(response.statusCode).toBe(400);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      await response.body.dump();
    }
    expect(origin.renders).toBe(0);
  });

  it('passes requests with hop-by-hop headers through instead of failing them', async () => {
    // node:http, unlike undici, lets a client send these headers, as browsers and curl do.
    const status = await new Promise<number>((resolve, reject) => {
      // An overlong URL is not cached, so the request itself goes on to the site.
      const outgoing = httpRequest(`${base}/acme?q=${'x'.repeat(3000)}`, {
        method: 'GET',
        headers: { connection: 'keep-alive, x-drop-me', 'keep-alive': 'timeout=5', 'x-drop-me': '1' },
      });
      outgoing.on('response', (incoming) => {
        incoming.resume();
        resolve(incoming.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(status).toBe(200);
    expect(origin.renders).toBe(1);
  });

  it("passes the site's 503 through even with old bytes at hand, and drops them", async () => {
    await (await get('/acme')).body.dump();
    origin.status = 503;
    origin.cacheControl = 'no-store';
    origin.body = 'unavailable';
    clock.now += 6_000;
    await (await get('/acme')).body.dump();
    await settle();
    const response = await get('/acme');
    expect(response.statusCode).toBe(503);
    expect(await response.body.text()).toBe('unavailable');
  });

  it('keeps old bytes through failing re-renders only up to the stale limit, telling their age', async () => {
    await (await get('/acme')).body.dump();
    origin.status = 500;
    origin.cacheControl = 'no-store';
    origin.body = 'broken';
    clock.now += 30_000;
    await (await get('/acme')).body.dump();
    await settle();
    const kept = await get('/acme');
    expect(kept.statusCode).toBe(200);
    expect(kept.headers.age).toBe('30');
    await kept.body.dump();
    clock.now += 60_000;
    await (await get('/acme')).body.dump();
    await settle();
    const expired = await get('/acme');
    expect(expired.statusCode).toBe(500);
    await expired.body.dump();
  });

  it('replaces pages rendered from older data as soon as the site announces new data', async () => {
    const announceVersion = announcer<string>(DATA_VERSION_CHANNEL);
    origin.dataVersion = '1';
    announceVersion('1');
    await settle();
    const first = await get('/acme');
    expect(first.headers[DATA_VERSION_HEADER]).toBeUndefined();
    await first.body.dump();
    origin.dataVersion = '2';
    origin.body = '<p>v2</p>';
    // Same version: the stored page is still served, well within its freshness.
    expect(await (await get('/acme')).body.text()).toContain('v1');
    announceVersion('2');
    await settle();
    // No clock change, no request: the new version alone re-renders the page, so the very
    // first request after it gets the new bytes.
    await expect.poll(() => origin.renders).toBe(2);
    await settle();
    expect(await (await get('/acme')).body.text()).toBe('<p>v2</p>');
    expect(origin.renders).toBe(2);
  });

  it('re-renders after new data only the pages asked for in the last five minutes, most recent first', async () => {
    const announceVersion = announcer<string>(DATA_VERSION_CHANNEL);
    origin.dataVersion = '1';
    await (await get('/old')).body.dump();
    clock.now += 6 * 60_000;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await (await get('/recent')).body.dump();
    await (await get('/recent')).body.dump();
    expect(origin.renders).toBe(2);
    origin.dataVersion = '2';
    origin.body = '<p>v2</p>';
    announceVersion('2');
    await expect.poll(() => origin.renders).toBe(3);
    await settle();
    expect(origin.lastPath).toBe('/recent');
    expect(await (await get('/recent')).body.text()).toBe('<p>v2</p>');
    expect(origin.renders).toBe(3);
  });

  it('counts how each request was answered: hit, stale, miss, pass', async () => {
    await (await get('/acme')).body.dump();
    await (await get('/acme')).body.dump();
    clock.now += 6_000;
    await (await get('/acme')).body.dump();
    await expect.poll(() => origin.renders).toBe(2);
    await settle();
    await (await get('/acme')).body.dump();
    // The old history address is not cacheable: passed through to the site.
    await (await get('/acme/history?month=2026-10')).body.dump();
    expect(front.counts).toEqual({ miss: 1, hit: 2, stale: 1, pass: 1 });
  });
});

describe('the push route in front of the cache', () => {
  it('is answered before anything is rendered, whatever the token', async () => {
    const pushes: (string | null)[] = [];
    const withPush = createFrontHandler({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      freshMs: 5_000,
      maxStaleMs: 60_000,
      maxEntries: 10,
      maxBytes: 1_000_000,
      log: () => undefined,
      push: createPushReceiver({ token: 'the-right-token-0123456789abcdefghij', onPush: (kind) => pushes.push(kind) }),
    });
    const server = createServer(withPush.handle);
    const url = await listen(server);
    try {
      const wrong = await request(`${url}/_porchlight/push/wrong`, { method: 'POST', body: '{}' });
      expect(wrong.statusCode).toBe(404);
      await wrong.body.dump();
      const right = await request(`${url}/_porchlight/push/the-right-token-0123456789abcdefghij`, { method: 'POST', body: '{}' });
      expect(right.statusCode).toBe(202);
      await right.body.dump();
      expect(pushes).toEqual([null]);
      expect(origin.renders).toBe(0);
      expect(withPush.counts).toEqual({ hit: 0, stale: 0, miss: 0, pass: 0 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await withPush.close();
    }
  });
});


describe('with the public address known (SITE_PUBLIC_URL)', () => {
  it('answers every Host that is not a custom domain as the main host: one render, whatever names clients invent', async () => {
    const withPublic = createFrontHandler({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      freshMs: 5_000,
      maxStaleMs: 60_000,
      maxEntries: 100,
      maxBytes: 10_000_000,
      now: () => clock.now,
      log: () => undefined,
      publicHost: 'status.example.test',
    });
    const server = createServer(withPublic.handle);
    const address = await listen(server);
    const ask = async (host: string) => (await request(`${address}/acme`, { headers: { host } })).body.dump();
    try {
      // Before the site has told its domains, each Host is answered as asked.
      await ask('early.example.test');
      expect(origin.lastHost).toBe('early.example.test');
      announcer<string[]>(CUSTOM_DOMAINS_CHANNEL)(['status.acme.test']);
      await settle();
      const rendersBefore = origin.renders;
      for (let index = 0; index < 20; index += 1) await ask(`random-${index}.example.test`);
      await ask('status.example.test');
      expect(origin.renders).toBe(rendersBefore + 1);
      expect(origin.lastHost).toBe('status.example.test');
      // A page's own domain keeps its own bytes.
      await ask('Status.Acme.Test:8080');
      expect(origin.lastHost).toBe('status.acme.test:8080');
      expect(origin.renders).toBe(rendersBefore + 2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await withPublic.close();
    }
  });
});

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createPassThrough, type PassThrough } from '../../src/server/front/pass-through.ts';
import { leaveAfter } from './support/leaving-client.ts';

/** A scripted site: answers after `delayMs`, remembers what it was asked and which requests it saw end early. */
interface Site {
  delayMs: number;
  body: string;
  seen: { method: string | undefined; path: string | undefined }[];
  closedEarly: number;
  open: number;
}

let site: Site;
let upstream: Server;
let front: Server;
let passThrough: PassThrough;
let base: string;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function frontFor(options: { connections?: number; maxWaiting?: number; maxBytes?: number } = {}) {
  passThrough = createPassThrough({ upstream: upstreamUrl, connections: options.connections ?? 1, maxWaiting: options.maxWaiting ?? 64, maxBytes: options.maxBytes ?? 1_000_000, timeoutMs: 5_000 });
  front = createServer((req: IncomingMessage, res: ServerResponse) => {
    passThrough.send(req, res, 'status.example.test', '/acme').catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  return listen(front);
}

let upstreamUrl: string;

beforeEach(async () => {
  site = { delayMs: 0, body: '<p>page</p>'.repeat(100), seen: [], closedEarly: 0, open: 0 };
  upstream = createServer((req, res) => {
    site.seen.push({ method: req.method, path: req.url });
    site.open += 1;
    let answered = false;
    res.on('close', () => {
      site.open -= 1;
      if (!answered) site.closedEarly += 1;
    });
    setTimeout(() => {
      if (res.destroyed) return;
      answered = true;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(site.body);
    }, site.delayMs);
  });
  upstreamUrl = await listen(upstream);
});

afterEach(async () => {
  front.closeAllConnections();
  await new Promise((resolve) => front.close(resolve));
  await passThrough.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pass-through', () => {
  it('ends the request to the site when the visitor leaves before the answer', async () => {
    base = await frontFor();
    site.delayMs = 300;
    await leaveAfter(base, 20);
    await expect.poll(() => site.closedEarly, { timeout: 2_000 }).toBe(1);
    expect(passThrough.waiting()).toBe(0);
  });

  it('still answers after a hundred visitors left, with a single connection to the site', async () => {
    base = await frontFor({ connections: 1 });
    site.delayMs = 50;
    await Promise.all(Array.from({ length: 100 }, (_, index) => leaveAfter(base, index % 10)));
    // Served one after another they would take 5 s: the requests of visitors who left are dropped.
    await expect.poll(() => passThrough.waiting(), { timeout: 3_000 }).toBe(0);
    site.delayMs = 0;
    const started = performance.now();
    const response = await request(`${base}/acme`);
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toBe(site.body);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('frees the connection to the site as soon as the answer is read, whatever the visitor reads', async () => {
    base = await frontFor({ connections: 1 });
    site.body = 'x'.repeat(4_000_000);
    // A visitor that never reads: its answer waits in memory, not in the site's connection.
    const { port } = new URL(base);
    const stalled = net.connect(Number(port), '127.0.0.1', () => stalled.write('GET /acme HTTP/1.1\r\nHost: x\r\n\r\n'));
    stalled.pause();
    try {
      await expect.poll(() => site.seen.length).toBe(1);
      await expect.poll(() => site.open).toBe(0);
      site.body = 'small';
      const response = await request(`${base}/acme`);
      expect(await response.body.text()).toBe('small');
    } finally {
      stalled.destroy();
    }
  });

  it('asks the site for a GET when the visitor sent HEAD, and answers with its headers only', async () => {
    base = await frontFor();
    const response = await request(`${base}/acme`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(site.body)));
    expect(await response.body.text()).toBe('');
    expect(site.seen).toEqual([{ method: 'GET', path: '/acme' }]);
  });

  it('compresses for a client that accepts it', async () => {
    base = await frontFor();
    const response = await request(`${base}/acme`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    await response.body.dump();
  });

  it('answers 503 at once when too many requests already wait for the site', async () => {
    base = await frontFor({ connections: 1, maxWaiting: 2 });
    site.delayMs = 200;
    const answers = await Promise.all(Array.from({ length: 4 }, () => request(`${base}/acme`)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    await Promise.all(answers.map((answer) => answer.body.dump()));
    expect(statuses).toEqual([200, 200, 503, 503]);
  });

  it('refuses an answer larger than its bound', async () => {
    base = await frontFor({ maxBytes: 100 });
    const response = await request(`${base}/acme`);
    expect(response.statusCode).toBe(502);
    await response.body.dump();
    await sleep(10);
    expect(site.open).toBe(0);
  });
});

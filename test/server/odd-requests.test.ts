/**
 * Odd requests over a raw socket, against the public server and front cache in front of a
 * scripted origin: each gets one plain answer, nothing reaches the renderer, nothing is logged.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFrontHandler, type FrontHandler } from '../../src/server/front/front-server.ts';
import { createPublicServer } from '../../src/server/front/public-server.ts';

let upstream: Server;
let front: FrontHandler;
let server: Server;
let port: number;
let renders: { host: string | undefined; path: string | undefined }[];
let logged: string[];
let rejected: string[];
let originDelayMs: number;

async function listen(target: Server): Promise<number> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  return (target.address() as AddressInfo).port;
}

async function start(freshMs: number): Promise<void> {
  renders = [];
  logged = [];
  rejected = [];
  originDelayMs = 0;
  upstream = createServer((incoming, outgoing) => {
    renders.push({ host: incoming.headers.host, path: incoming.url });
    setTimeout(() => {
      outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=30' });
      outgoing.end('<p>page</p>'.repeat(2000));
    }, originDelayMs);
  });
  const upstreamPort = await listen(upstream);
  front = createFrontHandler({ upstream: `http://127.0.0.1:${upstreamPort}`, freshMs, maxStaleMs: 60_000, maxEntries: 100, maxBytes: 10_000_000, log: (line) => logged.push(line) });
  server = createPublicServer(front.handle, { onRejected: (code) => rejected.push(code), headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 50 });
  port = await listen(server);
}

beforeEach(() => start(5_000));

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await front.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

/** Sends raw bytes and reads until the server closes or `ms` pass. */
function raw(bytes: string | Buffer, ms = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(bytes);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const header = (answer: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(answer)?.[1]?.trim();
const request = (line: string, headers = 'Host: status.example.test\r\n') => raw(`${line}\r\n${headers}Connection: close\r\n\r\n`);

describe('odd requests', () => {
  it.each(['TRACE', 'PUT', 'DELETE', 'PATCH', 'POST', 'PROPFIND'])('%s on a page is a 405 with Allow, and nothing is rendered', async (method) => {
    const answer = await raw(`${method} /acme HTTP/1.1\r\nHost: status.example.test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(statusOf(answer)).toBe(405);
    expect(header(answer, 'allow')).toBe('GET, HEAD, OPTIONS');
    expect(answer.split('\r\n\r\n')[1]?.trim().split('\n')).toHaveLength(1);
    expect(renders).toHaveLength(0);
    expect(logged).toEqual([]);
  });

  it('OPTIONS is a 204 with Allow and no body, for a path and for *', async () => {
    for (const target of ['/acme', '*']) {
      const answer = await request(`OPTIONS ${target} HTTP/1.1`);
      expect(statusOf(answer)).toBe(204);
      expect(header(answer, 'allow')).toBe('GET, HEAD, OPTIONS');
      expect(answer.endsWith('\r\n\r\n')).toBe(true);
    }
    expect(renders).toHaveLength(0);
  });

  it('CONNECT is a 405: the site is no proxy', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(statusOf(answer)).toBe(405);
    expect(rejected).toEqual(['CONNECT']);
    expect(renders).toHaveLength(0);
  });

  it('a CONNECT socket is closed by the server even when the client keeps its side open', async () => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const ended = new Promise<void>((resolve) => socket.on('end', () => resolve()));
    socket.on('data', () => undefined);
    socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    await ended;
    const connections = () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    // The server's side is gone although this client never ended its own.
    await expect.poll(connections, { timeout: 2_000 }).toBe(0);
    socket.destroy();
  });

  it('an absolute-form request is routed by the host in its URI, not the Host header', async () => {
    const answer = await request('GET http://status.example.test/acme?utm=1 HTTP/1.1', 'Host: evil.test\r\n');
    expect(statusOf(answer)).toBe(200);
    expect(renders).toEqual([{ host: 'status.example.test', path: '/acme' }]);
  });

  it('an absolute-form URI that is not http(s), or has credentials, is a 400', async () => {
    for (const target of ['ftp://status.example.test/acme', 'http://user:pw@status.example.test/acme', 'acme']) {
      expect(statusOf(await request(`GET ${target} HTTP/1.1`))).toBe(400);
    }
    expect(renders).toHaveLength(0);
  });

  it('two Host headers are a 400, whichever comes first', async () => {
    const answer = await request('GET /acme HTTP/1.1', 'Host: status.example.test\r\nHost: other.example.test\r\n');
    expect(statusOf(answer)).toBe(400);
    expect(renders).toHaveLength(0);
  });

  it('a request line Node cannot parse is a 400, counted and not logged', async () => {
    const answer = await raw('THIS IS NOT HTTP\r\n\r\n');
    expect(statusOf(answer)).toBe(400);
    expect(rejected).toHaveLength(1);
    expect(logged).toEqual([]);
  });

  it('headers larger than Node accepts are a 431', async () => {
    const answer = await request('GET /acme HTTP/1.1', `Host: status.example.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n`);
    expect(statusOf(answer)).toBe(431);
    expect(rejected).toEqual(['HPE_HEADER_OVERFLOW']);
    expect(renders).toHaveLength(0);
  });

  it('a client too slow to send its headers is cut off with a 408', async () => {
    const answer = await raw('GET /acme HTTP/1.1\r\nHost: status.example.test\r\n', 3_000);
    expect(statusOf(answer)).toBe(408);
    expect(renders).toHaveLength(0);
  });

  it('a visitor who leaves mid-answer costs a log line to nobody', async () => {
    await front.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    // Caching off: every answer streams through from the site.
    await start(0);
    originDelayMs = 100;
    await raw('GET /acme HTTP/1.1\r\nHost: status.example.test\r\n\r\n', 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(renders).toHaveLength(1);
    expect(logged).toEqual([]);
  });

  it('a plain GET still works, and HEAD has no body', async () => {
    expect(statusOf(await request('GET /acme HTTP/1.1'))).toBe(200);
    const head = await request('HEAD /acme HTTP/1.1');
    expect(statusOf(head)).toBe(200);
    expect(head.split('\r\n\r\n')[1]).toBe('');
  });
});

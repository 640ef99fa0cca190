/**
 * A real HTTP hop between Porchlight and the API that a test can turn bad: pass requests
 * through (method, body and rate-limit headers included), rewrite JSON answers (odd records),
 * answer garbage, answer 429, or refuse connections. It counts every request, and keeps the
 * method and path of each with its time, so tests and benchmarks can tell what was asked when.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { request } from 'undici';

export type ProxyMode = 'pass' | 'down' | 'garbage' | 'rate-limited';

export interface ApiProxy {
  url: string;
  mode: ProxyMode;
  /** Rewrites parsed JSON answers of the paths it matches. */
  rewrite: ((path: string, body: unknown) => unknown) | null;
  /** Held this long before each answer (a slow API). */
  delayMs: number;
  /** The Retry-After of its 429s in 'rate-limited' mode. */
  retryAfterSeconds: number;
  requests: number;
  /** Every request received: `METHOD /api/v1/path?query` and when (epoch ms). */
  log: { at: number; request: string }[];
  close(): Promise<void>;
}

/** Answer headers worth passing on: the API's rate-limit state and Retry-After. */
const PASSED_HEADERS = /^(x-)?ratelimit-|^retry-after$/i;

export async function startApiProxy(upstreamApiUrl: string): Promise<ApiProxy> {
  const upstream = new URL(upstreamApiUrl);
  const sockets = new Set<Socket>();
  const proxy: ApiProxy = { url: '', mode: 'pass', rewrite: null, delayMs: 0, retryAfterSeconds: 3, requests: 0, log: [], close: async () => undefined };

  async function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    proxy.requests += 1;
    proxy.log.push({ at: Date.now(), request: `${incoming.method ?? 'GET'} ${incoming.url ?? '/'}` });
    if (proxy.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, proxy.delayMs));
    if (proxy.mode === 'down') {
      incoming.socket.destroy();
      return;
    }
    if (proxy.mode === 'garbage') {
      outgoing.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [ this is not json');
      return;
    }
    if (proxy.mode === 'rate-limited') {
      outgoing.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(proxy.retryAfterSeconds) }).end('{"error":{"code":"rate_limited","message":"slow down"}}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const method = (incoming.method ?? 'GET') as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    const body = chunks.length > 0 ? Buffer.concat(chunks) : null;
    const answer = await request(new URL(incoming.url ?? '/', upstream.origin), {
      method,
      headers: {
        authorization: incoming.headers.authorization ?? '',
        accept: 'application/json',
        ...(body ? { 'content-type': incoming.headers['content-type'] ?? 'application/json' } : {}),
      },
      body,
    });
    let text = await answer.body.text();
    if (proxy.rewrite && answer.statusCode === 200) text = JSON.stringify(proxy.rewrite(incoming.url ?? '', JSON.parse(text)));
    const passed = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => PASSED_HEADERS.test(name)));
    outgoing.writeHead(answer.statusCode, { ...passed, 'content-type': 'application/json' }).end(text);
  }

  const server = createServer((incoming, outgoing) => {
    forward(incoming, outgoing).catch(() => outgoing.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${upstream.pathname}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnswerTooLargeError, createSitePool, SiteTimeoutError, type SitePool } from '../../src/server/front/site-pool.ts';

let server: Server;
let pool: SitePool;
/** What the scripted site answers, by path. */
const answers: Record<string, (write: (chunk: string) => void, end: (chunk?: string) => void) => void> = {
  '/small': (_write, end) => end('ok'),
  '/one-chunk': (_write, end) => end('x'.repeat(1_000)),
  '/streamed': (write) => {
    const timer = setInterval(() => write('y'.repeat(64)), 5);
    server.once('close', () => clearInterval(timer));
  },
  '/silent': () => undefined,
};

beforeEach(async () => {
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const answer = answers[request.url ?? ''] ?? ((_write, end) => end('?'));
    answer((chunk) => response.write(chunk), (chunk) => response.end(chunk));
    response.on('close', () => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pool = createSitePool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 1, timeoutMs: 300, maxBytes: 500 });
});

afterEach(async () => {
  await pool.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the pool of connections to the site', () => {
  it('reads a whole answer', async () => {
    const answer = await pool.request({ method: 'GET', path: '/small', headers: {} });
    expect([answer.statusCode, answer.body.toString()]).toEqual([200, 'ok']);
  });

  // An answer that came whole in one chunk has already freed its socket: failing it must not
  // throw from that socket (it once ended the process with an uncaught error).
  it.each(['/one-chunk', '/streamed'])('refuses an answer over its bound (%s) and serves the next request', async (path) => {
    await expect(pool.request({ method: 'GET', path, headers: {} })).rejects.toBeInstanceOf(AnswerTooLargeError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await pool.request({ method: 'GET', path: '/small', headers: {} })).body.toString()).toBe('ok');
  });

  it('gives up on a site that does not answer in time, and serves the next request', async () => {
    await expect(pool.request({ method: 'GET', path: '/silent', headers: {} })).rejects.toBeInstanceOf(SiteTimeoutError);
    expect((await pool.request({ method: 'GET', path: '/small', headers: {} })).body.toString()).toBe('ok');
  });

  it('ends the request when its visitor leaves', async () => {
    const controller = new AbortController();
    const asked = pool.request({ method: 'GET', path: '/silent', headers: {}, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(asked).rejects.toMatchObject({ name: 'AbortError' });
    expect((await pool.request({ method: 'GET', path: '/small', headers: {} })).body.toString()).toBe('ok');
  });
});

/** The client's own HTTP over node:http: keep-alive, each phase bounded, the body capped. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpDispatcher, type DispatchRequest, type RequestDispatcher } from '../../src/api/http-dispatcher.ts';

const servers: Server[] = [];
const dispatchers: RequestDispatcher[] = [];

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
  for (const server of servers.splice(0)) server.closeAllConnections();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void, host = '127.0.0.1'): Promise<{ origin: string; connections: () => number }> {
  const server = createServer(handler);
  let connections = 0;
  server.on('connection', () => (connections += 1));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`, connections: () => connections };
}

function dispatcher(overrides: Partial<Parameters<typeof createHttpDispatcher>[0]> = {}): RequestDispatcher {
  const created = createHttpDispatcher({ connectTimeoutMs: 2_000, headersTimeoutMs: 2_000, bodyTimeoutMs: 2_000, maxResponseBytes: 1_000, ...overrides });
  dispatchers.push(created);
  return created;
}

const get = (origin: string, path = '/api/v1/x'): DispatchRequest => ({ origin, path, method: 'GET', headers: { accept: 'application/json' }, body: null });

async function failure(promise: Promise<unknown>): Promise<{ code?: unknown; name?: unknown }> {
  return promise.then(
    () => ({ code: 'no failure' }),
    (error: unknown) => error as { code?: unknown; name?: unknown },
  );
}

describe('the client over node:http', () => {
  it('sends the path as given, with method, headers and body, and reads status, headers and text', async () => {
    const seen: { url?: string; method?: string; body?: string; auth?: string } = {};
    const { origin } = await serve((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        Object.assign(seen, { url: request.url, method: request.method, body: Buffer.concat(chunks).toString(), auth: request.headers.authorization });
        response.writeHead(201, { 'x-ratelimit-remaining': '7', 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    const answer = await dispatcher().request({ origin, path: '/api/v1/monitors/%2E%2E?x=1', method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['x-ratelimit-remaining']).toBe('7');
    expect(await answer.body.text()).toBe('{"ok":true}');
    expect(seen).toEqual({ url: '/api/v1/monitors/%2E%2E?x=1', method: 'POST', body: '{"a":1}', auth: 'Bearer k' });
  });

  it('keeps one connection for requests in turn, and reaches an IPv6 loopback origin', async () => {
    const { origin, connections } = await serve((_request, response) => response.end('{}'), '::1');
    const client = dispatcher();
    for (let index = 0; index < 3; index += 1) await (await client.request(get(origin))).body.text();
    expect(connections()).toBe(1);
  });

  it('bounds the wait for headers', async () => {
    const { origin } = await serve(() => undefined);
    const started = Date.now();
    expect(await failure(dispatcher({ headersTimeoutMs: 150 }).request(get(origin)))).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('bounds the silence between body chunks', async () => {
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"partial":');
    });
    const answer = await dispatcher({ bodyTimeoutMs: 150 }).request(get(origin));
    expect(await failure(answer.body.text())).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('refuses a body over the cap, declared or streamed, without buffering it', async () => {
    const declared = await serve((_request, response) => response.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)));
    expect(await failure(dispatcher().request(get(declared.origin)))).toMatchObject({ code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
    const streamed = await serve((_request, response) => {
      response.writeHead(200);
      for (let index = 0; index < 10; index += 1) response.write('y'.repeat(500));
      response.end();
    });
    const answer = await dispatcher().request(get(streamed.origin));
    expect(await failure(answer.body.text())).toMatchObject({ code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
  });

  it('fails a body cut short by the server', async () => {
    const { origin } = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"cut":');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const answer = await dispatcher().request(get(origin));
    expect(await failure(answer.body.text())).not.toEqual({ code: 'no failure' });
  });

  it('stops at once when the caller aborts, and the next request is served', async () => {
    let calls = 0;
    const { origin } = await serve((_request, response) => {
      calls += 1;
      if (calls > 1) response.end('{}');
    });
    const client = dispatcher();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await failure(client.request({ ...get(origin), signal: controller.signal }))).toMatchObject({ name: 'AbortError' });
    expect(await (await client.request(get(origin))).body.text()).toBe('{}');
  });

  it("holds at most maxConnections to an origin (the front's pool to the site), others wait their turn", async () => {
    let open = 0;
    let most = 0;
    const { origin, connections } = await serve((_request, response) => {
      open += 1;
      most = Math.max(most, open);
      setTimeout(() => {
        open -= 1;
        response.end(Buffer.from([0, 1, 2, 255]));
      }, 20);
    });
    const bounded = createHttpDispatcher({ connectTimeoutMs: 2_000, headersTimeoutMs: 2_000, bodyTimeoutMs: 2_000, maxResponseBytes: 1_000, maxConnections: 2 });
    dispatchers.push(bounded);
    const answers = await Promise.all(Array.from({ length: 6 }, () => bounded.request({ ...get(origin), headers: { 'x-n': 1 } }).then((answer) => answer.body.bytes())));
    expect(answers.map((bytes) => [...bytes])).toEqual(Array.from({ length: 6 }, () => [0, 1, 2, 255]));
    expect(most).toBe(2);
    expect(connections()).toBe(2);
  });
});

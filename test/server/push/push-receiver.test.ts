import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createPushReceiver, PUSH_PATH, type PushReceiver } from '../../../src/server/push/push-receiver.ts';

const TOKEN = 'a'.repeat(20) + 'B_c-0123456789xyzXYZ01';

let server: Server;
let receiver: PushReceiver;
let base: string;
let pushes: (string | null)[];

beforeEach(async () => {
  pushes = [];
  receiver = createPushReceiver({ token: TOKEN, onPush: (kind) => pushes.push(kind), maxBodyBytes: 1024 });
  server = createServer((req, res) => {
    if (receiver.matches(req.url ?? '/')) receiver.handle(req, res);
    else res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (path: string, body = '{"text":"Incident opened"}', headers: Record<string, string> = {}) =>
  request(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('the push route', () => {
  it('accepts a post with the right token, unread, and asks for one refresh', async () => {
    const response = await post(`${PUSH_PATH}${TOKEN}`, '{"text":"<b>never rendered</b>"}', { 'x-porchlight-event': 'onIncidentCreated' });
    expect(response.statusCode).toBe(202);
    expect(response.headers['cache-control']).toBe('no-store');
    await response.body.dump();
    expect(pushes).toEqual(['onIncidentCreated']);
    expect(receiver.counts).toEqual({ accepted: 1, refused: 0, tooLarge: 0 });
  });

  it('does not pass on an event name that is not one', async () => {
    await (await post(`${PUSH_PATH}${TOKEN}`, '{}', { 'x-porchlight-event': 'onX; rm -rf /' })).body.dump();
    expect(pushes).toEqual([null]);
  });

  it.each([
    ['a wrong token', `${PUSH_PATH}${TOKEN.slice(0, -1)}X`],
    ['a token prefix', `${PUSH_PATH}${TOKEN.slice(0, 10)}`],
    ['the token with more after it', `${PUSH_PATH}${TOKEN}/x`],
    ['no token', PUSH_PATH],
  ])('answers a plain 404 to %s, and asks for nothing', async (_case, path) => {
    const response = await post(path);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(await response.body.text()).toBe('Not Found\n');
    expect(pushes).toEqual([]);
    expect(receiver.counts.refused).toBe(1);
  });

  it('answers 404 to any other method, even with the right token', async () => {
    const response = await request(`${base}${PUSH_PATH}${TOKEN}`);
    expect(response.statusCode).toBe(404);
    await response.body.dump();
    expect(pushes).toEqual([]);
  });

  it('refuses a body over the cap, whether announced or streamed, without asking for a refresh', async () => {
    const announced = await post(`${PUSH_PATH}${TOKEN}`, 'x'.repeat(2048));
    expect(announced.statusCode).toBe(413);
    await announced.body.dump();
    const streamed = await request(`${base}${PUSH_PATH}${TOKEN}`, {
      method: 'POST',
      body: Readable.from(
        (function* () {
          for (let index = 0; index < 8; index += 1) yield Buffer.alloc(512, 0x78);
        })(),
      ),
    }).catch(() => null);
    if (streamed) {
      expect(streamed.statusCode).toBe(413);
      await streamed.body.dump().catch(() => undefined);
    }
    expect(pushes).toEqual([]);
    expect(receiver.counts.tooLarge).toBe(2);
  });

  it('is off without a token: every post is a 404', async () => {
    const off = createPushReceiver({ token: null, onPush: () => pushes.push('called') });
    const offServer = createServer((req, res) => off.handle(req, res));
    await new Promise<void>((resolve) => offServer.listen(0, '127.0.0.1', resolve));
    try {
      const response = await request(`http://127.0.0.1:${(offServer.address() as AddressInfo).port}${PUSH_PATH}${TOKEN}`, { method: 'POST', body: '{}' });
      expect(response.statusCode).toBe(404);
      await response.body.dump();
      expect(pushes).toEqual([]);
    } finally {
      offServer.closeAllConnections();
      await new Promise((resolve) => offServer.close(resolve));
    }
  });
});

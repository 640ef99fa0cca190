/** Wire details: headers, URL building, path encoding, timeouts and network failures. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiConnectionError,
  ApiTimeoutError,
  ApiUsageError,
  CLIENT_VERSION,
  InvalidResponseError,
  createClient,
} from '../../src/api/index.ts';
import * as fx from './support/fixtures.ts';
import { API_KEY, startHarness, type Harness } from './support/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('request headers', () => {
  it('sends the bearer key, JSON accept and the porchlight user agent', async () => {
    h = await startHarness();
    h.api.reply({ json: { data: fx.organization } });
    await h.client.organization.get();
    const headers = h.api.requests[0]!.headers;
    expect(headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(headers.accept).toBe('application/json');
    expect(headers['user-agent']).toBe(`porchlight/${CLIENT_VERSION}`);
    expect(headers['content-type']).toBeUndefined();
  });

  it('sends Content-Type application/json with a body', async () => {
    h = await startHarness();
    h.api.reply({ json: { data: fx.monitor } });
    await h.client.monitors.update('mon_1', { active: false });
    expect(h.api.requests[0]!.headers['content-type']).toBe('application/json');
    expect(h.api.requests[0]!.rawBody).toBe('{"active":false}');
  });

  it('keeps CLIENT_VERSION in step with package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(CLIENT_VERSION).toBe(pkg.version);
  });

  it('reuses one keep-alive connection across requests', async () => {
    h = await startHarness();
    h.api.setDefault(() => ({ json: { data: fx.organization } }));
    for (let count = 0; count < 6; count += 1) await h.client.organization.get();
    // undici may open a second socket while the first finishes, but never one per request.
    const ports = new Set(h.api.requests.map((request) => request.remotePort));
    expect(h.api.requests).toHaveLength(6);
    expect(ports.size).toBeLessThanOrEqual(2);
  });
});

describe('paths', () => {
  it.each([
    ['a/b', '/api/v1/monitors/a%2Fb'],
    ['what?x=1', '/api/v1/monitors/what%3Fx%3D1'],
    ['..', '/api/v1/monitors/%2E%2E'],
    ['sp ace#frag', '/api/v1/monitors/sp%20ace%23frag'],
  ])('encodes id %j as one segment', async (id, expected) => {
    h = await startHarness();
    h.api.reply({ json: { data: fx.monitor } });
    await h.client.monitors.get(id);
    expect(h.api.requests[0]!.url).toBe(expected);
  });

  it('encodes ids in nested paths too', async () => {
    h = await startHarness();
    h.api.reply({ json: { data: [], pagination: fx.pagination(0) } });
    await h.client.monitors.listChecks('x/../y');
    expect(h.api.requests[0]!.rawPath).toBe('/api/v1/monitors/x%2F..%2Fy/checks');
  });

  it('refuses an empty id without sending anything', async () => {
    h = await startHarness();
    await expect(h.client.incidents.delete('')).rejects.toBeInstanceOf(ApiUsageError);
    expect(h.api.requests).toHaveLength(0);
  });

  it('accepts a base URL with a trailing slash', async () => {
    h = await startHarness();
    const client = createClient({ baseUrl: `${h.api.baseUrl}/`, apiKey: API_KEY });
    h.api.reply({ json: { data: fx.organization } });
    await client.organization.get();
    await client.close();
    expect(h.api.requests[0]!.rawPath).toBe('/api/v1/organization');
  });

  it.each([
    ['http://127.0.0.1:1/api', 'must end in /api/v1'],
    ['ftp://127.0.0.1/api/v1', 'http or https'],
    ['not a url', 'absolute http(s) URL'],
    ['http://user:pw@127.0.0.1/api/v1', 'credentials'],
    ['http://127.0.0.1/api/v1?x=1', 'query'],
  ])('rejects base URL %s', (baseUrl, reason) => {
    expect(() => createClient({ baseUrl, apiKey: API_KEY })).toThrow(reason);
  });

  it('rejects an empty or multi-line API key without echoing it', () => {
    expect(() => createClient({ baseUrl: 'http://127.0.0.1/api/v1', apiKey: '' })).toThrow(ApiUsageError);
    const bad = 'sk_live\r\nX-Evil: 1';
    try {
      createClient({ baseUrl: 'http://127.0.0.1/api/v1', apiKey: bad });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiUsageError);
      expect((error as Error).message).not.toContain('sk_live');
    }
  });
});

describe('network failures', () => {
  it('a server that never sends headers ends in ApiTimeoutError (headers phase)', async () => {
    h = await startHarness({ maxRetries: 0, timeouts: { headersMs: 200 } });
    h.api.reply({ hang: true });
    const started = Date.now();
    const error = await h.client.monitors.get('mon_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect((error as ApiTimeoutError).phase).toBe('headers');
    expect((error as Error).message).toBe('GET /api/v1/monitors/mon_1: timed out waiting for response headers');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('the total deadline bounds an attempt even when the per-phase timeouts are long', async () => {
    h = await startHarness({ maxRetries: 0, timeouts: { headersMs: 10_000, totalMs: 200 } });
    h.api.reply({ hang: true });
    const error = await h.client.organization.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as ApiTimeoutError).phase).toBe('total');
  });

  it('a timed-out GET is retried', async () => {
    h = await startHarness({ maxRetries: 1, timeouts: { headersMs: 200 } });
    h.api.reply({ hang: true }, { json: { data: fx.organization } });
    await expect(h.client.organization.get()).resolves.toEqual(fx.organization);
    expect(h.api.requests).toHaveLength(2);
    expect(h.sleeps).toHaveLength(1);
  });

  it('connection refused ends in ApiConnectionError naming the request', async () => {
    const port = await closedPort();
    const logged: string[] = [];
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      apiKey: API_KEY,
      maxRetries: 1,
      sleep: async () => {},
      logger: { warn: (message) => logged.push(message) },
    });
    const error = await client.monitors.list().catch((caught: unknown) => caught);
    await client.close();
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
    expect((error as Error).message).toBe('GET /api/v1/monitors: connection failed (ECONNREFUSED)');
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('an injected dispatcher is used and left open by close()', async () => {
    h = await startHarness();
    const dispatcher = new Agent();
    const client = createClient({ baseUrl: h.api.baseUrl, apiKey: API_KEY, dispatcher });
    h.api.reply({ json: { data: fx.organization } });
    await client.organization.get();
    await client.close();
    expect(dispatcher.closed).toBe(false);
    await dispatcher.close();
  });
});

describe('invalid payloads', () => {
  it('a body that is not JSON is an InvalidResponseError without quoting the body', async () => {
    h = await startHarness();
    h.api.reply({ raw: `<html>${API_KEY}</html>` });
    const error = await h.client.monitors.get('mon_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe('GET /api/v1/monitors/mon_1: invalid response (200): body is not valid JSON');
  });

  it('a resource of the wrong shape is summarised on one line', async () => {
    h = await startHarness();
    h.api.reply({ json: { data: { ...fx.monitor, name: 42, regions: 'eu' } } });
    const error = (await h.client.monitors.get('mon_1').catch((caught: unknown) => caught)) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.summary).toBe('data.name: expected string, received number; data.regions: expected array, received string');
    expect(error.message).not.toContain('\n');
  });

  it('a missing data envelope is reported as such', async () => {
    h = await startHarness();
    h.api.reply({ json: fx.organization });
    const error = (await h.client.organization.get().catch((caught: unknown) => caught)) as InvalidResponseError;
    expect(error.summary).toBe('data: expected object, received undefined');
  });

  it('a list without a data array fails as a whole', async () => {
    h = await startHarness();
    h.api.reply({ json: { items: [] } });
    const error = (await h.client.incidents.list().catch((caught: unknown) => caught)) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.summary).toBe('data: expected array, received undefined');
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

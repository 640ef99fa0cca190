import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckTarget } from '../../../src/service/checks/run-check.ts';
import { closedPort, runLocal } from './loopback.ts';
import { startTargetServer, type TargetServer } from './target-server.ts';

let target: TargetServer;

beforeAll(async () => {
  target = await startTargetServer();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  target.mode = 'up';
  target.received.length = 0;
});

function http(path: string, extra: Partial<CheckTarget> = {}): CheckTarget {
  return { type: 'http', url: `${target.url}${path}`, timeoutSeconds: 2, rules: [], ...extra };
}

describe('runCheck http: a target switching states', () => {
  it('follows the service from up to 500 to a wrong body and back', async () => {
    const rules: CheckTarget['rules'] = [{ type: 'body', operator: 'contains', value: 'operational' }];

    const up = await runLocal(http('/', { rules }));
    expect(up).toMatchObject({ status: 'up', statusCode: 200, error: null });
    expect(Number.isInteger(up.latencyMs)).toBe(true);
    expect(up.latencyMs).toBeGreaterThanOrEqual(0);

    target.mode = 'error';
    const failing = await runLocal(http('/', { rules }));
    expect(failing).toMatchObject({ status: 'down', statusCode: 500 });
    expect(failing.error).toContain('status code 500 is not 2xx or 3xx');
    expect(failing.error).toContain('body does not contain "operational"');

    target.mode = 'wrong-body';
    expect(await runLocal(http('/', { rules }))).toMatchObject({
      status: 'down',
      statusCode: 200,
      error: 'body does not contain "operational"',
    });

    target.mode = 'up';
    expect((await runLocal(http('/', { rules }))).status).toBe('up');
  });

  it('is down on a 500 without rules, and up when a status_code rule expects it', async () => {
    target.mode = 'error';
    expect(await runLocal(http('/'))).toMatchObject({ status: 'down', error: 'status code 500 is not 2xx or 3xx' });
    const expected500 = await runLocal(http('/', { rules: [{ type: 'status_code', operator: 'eq', value: 500 }] }));
    expect(expected500).toMatchObject({ status: 'up', statusCode: 500, error: null });
  });

  it('follows a redirect chain to the final response', async () => {
    target.mode = 'redirect-chain';
    const outcome = await runLocal(http('/', { rules: [{ type: 'body', operator: 'eq', value: 'landed here' }] }));
    expect(outcome).toMatchObject({ status: 'up', statusCode: 200, error: null });
    expect(target.received.map((r) => r.url)).toEqual(['/', '/hop/2', '/hop/1', '/landed']);
  });

  it('is down when the chain is longer than the redirect limit', async () => {
    target.mode = 'redirect-chain';
    const limited = await runLocal(http('/'), { maxRedirects: 2 });
    expect(limited).toMatchObject({ status: 'down', statusCode: 302, error: 'too many redirects (more than 2)' });
    expect(target.received).toHaveLength(3);

    const defaultLimit = await runLocal(http('/hop/7'));
    expect(defaultLimit).toMatchObject({ status: 'down', error: 'too many redirects (more than 5)' });
  });

  it('detects a redirect loop', async () => {
    target.mode = 'redirect-loop';
    const outcome = await runLocal(http('/'));
    expect(outcome.status).toBe('down');
    expect(outcome.error).toMatch(/^redirect loop detected/);
    expect(target.received.map((r) => r.url)).toEqual(['/', '/loop-a', '/loop-b']);
  });

  it('times out a slow target within about the timeout', async () => {
    target.mode = 'slow';
    const started = performance.now();
    const outcome = await runLocal(http('/', { timeoutSeconds: 1 }));
    const took = performance.now() - started;
    expect(outcome).toMatchObject({ status: 'down', statusCode: null, error: 'timed out after 1 s' });
    expect(took).toBeGreaterThan(900);
    expect(took).toBeLessThan(1800);
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(900);
  });

  it('times out a body that never finishes, with and without body rules', async () => {
    const withRule = await runLocal(
      http('/stalled-body', { timeoutSeconds: 1, rules: [{ type: 'body', operator: 'contains', value: 'partial' }] }),
    );
    expect(withRule).toMatchObject({ status: 'down', statusCode: 200, error: 'timed out after 1 s' });
    const withoutRule = await runLocal(http('/stalled-body', { timeoutSeconds: 1 }));
    expect(withoutRule).toMatchObject({ status: 'down', error: 'timed out after 1 s' });
  });

  it('reads only the first MiB of a large body for body rules', async () => {
    const head = await runLocal(http('/big', { rules: [{ type: 'body', operator: 'contains', value: 'aaaa' }] }));
    expect(head.status).toBe('up');
    const tail = await runLocal(http('/big', { rules: [{ type: 'body', operator: 'contains', value: 'TAIL-MARKER' }] }));
    expect(tail).toMatchObject({ status: 'down', error: 'body does not contain "TAIL-MARKER"' });
  });

  it('evaluates header and response time rules on the real response', async () => {
    const passing = await runLocal(
      http('/headers', {
        rules: [
          { type: 'header', name: 'Content-Type', operator: 'contains', value: 'application/json' },
          { type: 'header', name: 'X-VERSION', operator: 'eq', value: '2.1.0' },
          { type: 'response_time', operator: 'lt', value: 5000 },
        ],
      }),
    );
    expect(passing).toMatchObject({ status: 'up', error: null });

    const failing = await runLocal(
      http('/headers', {
        rules: [
          { type: 'header', name: 'x-version', operator: 'eq', value: '2.0.0' },
          { type: 'header', name: 'x-missing', operator: 'exists' },
        ],
      }),
    );
    expect(failing).toMatchObject({
      status: 'down',
      error: 'header "x-version" is not eq "2.0.0"; header "x-missing" is missing',
    });
  });
});

describe('runCheck http: the request sent', () => {
  it('sends the method, headers and body, plus a default user agent', async () => {
    const outcome = await runLocal(
      http('/echo', {
        method: 'put',
        headers: { 'X-Api-Key': 'key-123', 'Content-Type': 'application/json' },
        body: '{"probe":true}',
      }),
    );
    expect(outcome.status).toBe('up');
    const [seen] = target.received;
    expect(seen).toMatchObject({ method: 'PUT', url: '/echo', body: '{"probe":true}' });
    expect(seen?.headers['x-api-key']).toBe('key-123');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['user-agent']).toMatch(/^Porchlight-Monitor/);
  });

  it('keeps a caller-provided user agent', async () => {
    await runLocal(http('/echo', { headers: { 'user-agent': 'custom-agent/9' } }));
    expect(target.received[0]?.headers['user-agent']).toBe('custom-agent/9');
  });

  it('turns a POST into a bodiless GET on 303 and 302, and keeps it on 307', async () => {
    const post = { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'payload' };
    await runLocal(http('/see-other', post));
    await runLocal(http('/found', post));
    await runLocal(http('/temporary', post));
    const echoes = target.received.filter((r) => r.url === '/echo');
    expect(echoes.map((r) => [r.method, r.body, r.headers['content-type']])).toEqual([
      ['GET', '', undefined],
      ['GET', '', undefined],
      ['POST', 'payload', 'text/plain'],
    ]);
  });

  it('does not hand credentials to another origin on redirect', async () => {
    const other = await startTargetServer();
    try {
      const to = encodeURIComponent(`${other.url}/echo`);
      const outcome = await runLocal(
        http(`/away?to=${to}`, { headers: { authorization: 'Bearer sekrit-token', 'x-trace': 'kept' } }),
      );
      expect(outcome.status).toBe('up');
      expect(target.received[0]?.headers['authorization']).toBe('Bearer sekrit-token');
      expect(other.received[0]?.headers['authorization']).toBeUndefined();
      expect(other.received[0]?.headers['x-trace']).toBe('kept');
    } finally {
      await other.close();
    }
  });

  it('uses the given dispatcher', async () => {
    const port = new URL(target.url).port;
    // A dispatcher resolving a made-up name to loopback: the check only succeeds through it.
    const agent = new Agent({
      connect: {
        lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
      },
    });
    try {
      const outcome = await runLocal(http('/', { url: `http://status.invalid:${port}/` }), { dispatcher: agent });
      expect(outcome).toMatchObject({ status: 'up', statusCode: 200 });
      expect(target.received[0]?.headers['host']).toBe(`status.invalid:${port}`);
    } finally {
      await agent.close();
    }
  });
});

describe('runCheck http: failures never throw', () => {
  it('reports a refused connection', async () => {
    const port = await closedPort();
    expect(await runLocal(http('/', { url: `http://127.0.0.1:${port}/` }))).toMatchObject({
      status: 'down',
      statusCode: null,
      error: 'connection refused',
    });
  });

  it('reports an invalid URL or a missing url', async () => {
    expect(await runLocal(http('/', { url: 'not a url' }))).toMatchObject({ status: 'down', error: 'invalid URL' });
    expect(await runLocal(http('/', { url: 'ftp://127.0.0.1/' }))).toMatchObject({ status: 'down', error: 'unsupported protocol ftp:' });
    expect(await runLocal(http('/', { url: null }))).toMatchObject({ status: 'down', error: 'http check needs a url' });
  });

  it('never puts request header values into the error', async () => {
    const outcome = await runLocal(http('/echo', { headers: { 'x-token': 'top-secret-value\r\ninjected: 1' } }));
    expect(outcome.status).toBe('down');
    expect(outcome.error).toBeTruthy();
    expect(outcome.error).not.toContain('top-secret-value');
    expect(target.received).toHaveLength(0);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { CheckTarget } from '../../../src/service/checks/run-check.ts';
import { closedPort, listen, type Listener, runLocal } from './loopback.ts';

const tcp = (extra: Partial<CheckTarget>): CheckTarget => ({ type: 'tcp', host: '127.0.0.1', timeoutSeconds: 1, rules: [], ...extra });

let listener: Listener | null = null;
afterEach(async () => {
  await listener?.close();
  listener = null;
});

describe('runCheck tcp', () => {
  it('is up when the port accepts a connection, with the connect time as latency', async () => {
    listener = await listen();
    const outcome = await runLocal(tcp({ port: listener.port }));
    expect(outcome).toMatchObject({ status: 'up', statusCode: null, error: null });
    expect(Number.isInteger(outcome.latencyMs)).toBe(true);
    expect(outcome.latencyMs).toBeLessThan(1000);
    await expect.poll(() => listener?.accepted()).toBe(1);
  });

  it('is down with "connection refused" on a closed port', async () => {
    expect(await runLocal(tcp({ port: await closedPort() }))).toMatchObject({
      status: 'down',
      statusCode: null,
      error: 'connection refused',
    });
  });

  it('is down when the host does not resolve', async () => {
    const outcome = await runLocal(tcp({ host: 'no-such-host.invalid', port: 80 }));
    expect(outcome.status).toBe('down');
    expect(outcome.error).toMatch(/^(host not found|host name lookup failed)/);
  });

  it('is down without throwing on missing or invalid targets', async () => {
    expect(await runLocal(tcp({ port: null }))).toMatchObject({ status: 'down', error: 'tcp check needs a host and a port' });
    expect(await runLocal(tcp({ host: '', port: 80 }))).toMatchObject({ status: 'down', error: 'tcp check needs a host and a port' });
    const badPort = await runLocal(tcp({ port: 70_000 }));
    expect(badPort.status).toBe('down');
    expect(badPort.error).toMatch(/^check failed: /);
    expect(await runLocal(tcp({ port: 80, timeoutSeconds: 0 }))).toMatchObject({
      status: 'down',
      error: 'timeout must be a positive number of seconds',
    });
  });
});

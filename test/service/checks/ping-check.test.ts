import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pingCheck } from '../../../src/service/checks/ping-check.ts';
import { tcpReachability } from '../../../src/service/checks/ping-fallback.ts';
import { closedPort, listen, type Listener, runLocal } from './loopback.ts';

let dir: string;
const listeners: Listener[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'porchlight-ping-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

async function openListener(): Promise<Listener> {
  const listener = await listen();
  listeners.push(listener);
  return listener;
}

/** A stand-in for the ping binary: records its arguments, then runs the given shell body. */
function fakePing(name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\nprintf "%s\\n" "$*" > "${file}.args"\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

function hasPingBinary(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v ping'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('pingCheck with the ping binary', () => {
  it('is up with the reported round trip on a reply, passing safe arguments', async () => {
    const binary = fakePing('reply', "echo '64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=12.4 ms'");
    const outcome = await pingCheck('127.0.0.1', 3, { binary });
    expect(outcome).toEqual({ status: 'up', latencyMs: 12, statusCode: null, error: null });
    const args = readFileSync(`${binary}.args`, 'utf8').trim();
    if (process.platform === 'linux') expect(args).toBe('-n -c 1 -W 3 127.0.0.1');
  });

  it('is down when no reply comes back (exit 1)', async () => {
    const binary = fakePing('silent', "echo '1 packets transmitted, 0 received, 100% packet loss'; exit 1");
    expect(await pingCheck('192.0.2.1', 1, { binary })).toMatchObject({ status: 'down', error: 'no reply within 1 s' });
  });

  it('is down with "host not found" for an unknown host', async () => {
    const binary = fakePing('unknown', "echo 'ping: nohost.invalid: Name or service not known' >&2; exit 2");
    expect(await pingCheck('nohost.invalid', 1, { binary })).toMatchObject({ status: 'down', error: 'host not found' });
  });

  it('kills a ping that outlives the timeout', async () => {
    const binary = fakePing('hang', 'exec sleep 10');
    const started = performance.now();
    const outcome = await pingCheck('127.0.0.1', 1, { binary });
    expect(outcome).toMatchObject({ status: 'down', error: 'timed out after 1 s' });
    expect(performance.now() - started).toBeLessThan(2500);
  });

  it('never starts ping for a host that could pass as an option', async () => {
    const binary = fakePing('never', 'exit 0');
    expect(await pingCheck('-f', 1, { binary })).toMatchObject({ status: 'down', error: 'invalid host name' });
    expect(() => readFileSync(`${binary}.args`)).toThrow();
  });
});

describe('pingCheck fallback', () => {
  it('falls back to TCP when the binary is missing (ENOENT)', async () => {
    const listener = await openListener();
    const outcome = await pingCheck('127.0.0.1', 1, { binary: path.join(dir, 'no-such-ping'), fallbackPorts: [listener.port] });
    expect(outcome).toMatchObject({ status: 'up', statusCode: null, error: null });
    expect(listener.accepted()).toBe(1);
  });

  it('falls back to TCP when ping may not open an ICMP socket', async () => {
    const binary = fakePing('denied', "echo 'ping: socket: Operation not permitted' >&2; exit 2");
    const listener = await openListener();
    const outcome = await pingCheck('127.0.0.1', 1, { binary, fallbackPorts: [listener.port] });
    expect(outcome.status).toBe('up');
    expect(listener.accepted()).toBe(1);
  });
});

describe('tcpReachability (the ping fallback)', () => {
  it('tries the ports in order and stops at the first that accepts', async () => {
    const first = await openListener();
    const second = await openListener();
    const outcome = await tcpReachability('127.0.0.1', 1, [first.port, second.port]);
    expect(outcome).toMatchObject({ status: 'up', statusCode: null, error: null });
    expect(Number.isInteger(outcome.latencyMs)).toBe(true);
    expect([first.accepted(), second.accepted()]).toEqual([1, 0]);
  });

  it('moves on to the next port when the first refuses', async () => {
    const open = await openListener();
    const outcome = await tcpReachability('127.0.0.1', 1, [await closedPort(), open.port]);
    expect(outcome.status).toBe('up');
    expect(open.accepted()).toBe(1);
  });

  it('counts a refusal on every port as the host answering', async () => {
    const outcome = await tcpReachability('127.0.0.1', 1, [await closedPort(), await closedPort()]);
    expect(outcome).toMatchObject({ status: 'up', error: null });
  });

  it('is down when the host does not resolve, saying what it tried', async () => {
    const outcome = await tcpReachability('no-such-host.invalid', 1);
    expect(outcome.status).toBe('down');
    expect(outcome.error).toMatch(/^(host not found|host name lookup failed).*\(ping unavailable; tried TCP ports 443, 80\)$/);
  });
});

describe('runCheck ping', () => {
  it(`reaches 127.0.0.1 (${hasPingBinary() ? 'ping binary present' : 'no ping binary: TCP fallback'})`, async () => {
    const outcome = await runLocal({ type: 'ping', host: '127.0.0.1', timeoutSeconds: 1, rules: [] });
    expect(outcome).toMatchObject({ status: 'up', statusCode: null, error: null });
    expect(Number.isInteger(outcome.latencyMs)).toBe(true);
  });

  it('is down without a host', async () => {
    expect(await runLocal({ type: 'ping', host: null, timeoutSeconds: 1, rules: [] })).toMatchObject({
      status: 'down',
      error: 'ping check needs a host',
    });
  });
});

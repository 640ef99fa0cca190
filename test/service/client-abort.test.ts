import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from './helpers.ts';

let t: TestService | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** Sends a POST that announces `declared` body bytes, sends `sent` of them, then resets the connection. */
async function abortMidBody(url: string, key: string, declared: number, sent: number): Promise<void> {
  const { hostname, port, pathname } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST ${pathname}/monitors HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${'{"name":"x",'.padEnd(sent, ' ')}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.resetAndDestroy();
}

describe('a client that leaves while sending its body', () => {
  it('is logged once at debug level as a client abort, not as an internal error with a stack', async () => {
    const debug: string[] = [];
    t = await startTestService({ logDebug: (line) => debug.push(line) });
    await abortMidBody(t.service.url, t.orgA.apiKey, 1000, 20);
    await vi.waitFor(async () => expect(debug).toHaveLength(1));
    expect(debug[0]).toBe('client abort: POST /api/v1/monitors closed before its body was complete');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.logs).toEqual([]);
    // The service keeps answering.
    expect((await t.a.get('/monitors')).status).toBe(200);
  });
});

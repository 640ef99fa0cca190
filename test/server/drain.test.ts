import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { drain } from '../../src/server/drain.ts';

let server: Server;
let agent: Agent;

async function start(delayMs: number): Promise<string> {
  server = createServer((_req, res) => setTimeout(() => res.end('done'), delayMs));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  agent = new Agent({ keepAliveTimeout: 60_000 });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

afterEach(async () => {
  server.closeAllConnections();
  await agent.close();
});

describe('drain', () => {
  it('lets a request in flight finish, refuses new connections, and closes kept-alive ones', async () => {
    const url = await start(300);
    // A kept-alive idle connection, then one request in flight.
    await (await request(url, { dispatcher: agent })).body.text();
    const inFlight = request(url, { dispatcher: new Agent() });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const drained = drain(server, 5_000);
    await expect(request(url, { dispatcher: new Agent() })).rejects.toThrow();
    const answer = await inFlight;
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.text()).toBe('done');
    expect(await drained).toEqual({ forced: false });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('cuts what is still running at the deadline', async () => {
    const url = await start(10_000);
    const inFlight = request(url, { dispatcher: new Agent() }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await drain(server, 200)).toEqual({ forced: true });
    expect(await inFlight).toBeInstanceOf(Error);
  });
});

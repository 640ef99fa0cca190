/**
 * One organization's blackholed checks cannot hold up another organization's (issue 17, item 2).
 * The scheduler runs on a manual clock (10 s intervals at will); the checks are real, against
 * loopback peers, with a 1 s timeout so the test stays short.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { idOf } from '../helpers.ts';
import { startEngineService, type EngineTest } from './harness.ts';

/** Accepts connections and never answers: every check against it runs into its timeout. */
async function startBlackhole(): Promise<{ url: string; accepted: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const INTERVAL_MS = 10_000;
/** Under the blackholed checks' 1 s timeout: a check done this soon did not wait for one of them. */
const PROMPT_MS = 800;

describe('fairness between organizations', () => {
  let t: EngineTest;
  let blackhole: Awaited<ReturnType<typeof startBlackhole>>;
  let target: TargetServer;
  beforeEach(async () => {
    blackhole = await startBlackhole();
    target = await startTargetServer();
    // Private targets allowed: both peers listen on 127.0.0.1.
    t = await startEngineService({ allowPrivateTargets: true });
  });
  afterEach(async () => {
    await t.close();
    await Promise.all([blackhole.close(), target.close()]);
  });

  it("checks a second organization on time while the first one's 50 monitors hang", async () => {
    const hanging: string[] = [];
    for (let n = 0; n < 50; n++) {
      hanging.push(idOf(await t.a.post('/monitors', { name: `Hang ${n}`, type: 'http', url: blackhole.url, interval: 10, timeout: 1 })));
    }
    // Created last, so it is queued behind all fifty of the first organization's checks.
    const healthy = idOf(await t.b.post('/monitors', { name: 'Healthy', type: 'http', url: `${target.url}/`, interval: 10, timeout: 1 }));
    const checksOfA = async () => (await Promise.all(hanging.map((id) => t.checks(id)))).reduce((sum, n) => sum + n, 0);

    for (let interval = 0; interval < 3; interval++) {
      const started = performance.now();
      t.clock.advance(interval === 0 ? 0 : INTERVAL_MS);
      await vi.waitFor(async () => expect(await t.checks(healthy)).toBe(interval + 1), { timeout: PROMPT_MS, interval: 10 });
      expect(performance.now() - started).toBeLessThan(PROMPT_MS);
      if (interval === 0) {
        // Not one of the first organization's checks had ended: the healthy one never waited for them.
        expect(await checksOfA()).toBe(0);
        expect(blackhole.accepted()).toBeGreaterThan(0);
      }
    }
    expect((await t.service.store.checks.list(healthy, { limit: 10, offset: 0 })).map((check) => check.status)).toEqual(['up', 'up', 'up']);
  });

  it('lets one organization alone use every slot but one', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 10; n++) ids.push(idOf(await t.a.post('/monitors', { name: `Hang ${n}`, type: 'http', url: blackhole.url, interval: 10, timeout: 1 })));
    t.clock.advance(0);
    // Eight slots, one busy organization: seven at a time, the eighth kept for another organization.
    await vi.waitFor(async () => expect(blackhole.accepted()).toBe(7), { timeout: PROMPT_MS });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(blackhole.accepted()).toBe(7);
    await vi.waitFor(async () => expect(blackhole.accepted()).toBe(10), { timeout: 2_000 });
  });
});

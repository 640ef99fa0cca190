/**
 * Clients that leave: raw sockets that send one request and close at a chosen point (before the
 * answer's headers, in the middle of its body, or after reading slowly), and a timed request that
 * says how long a server took to answer. Loopback only, each socket bounded in time.
 */
import net from 'node:net';

export type LeavePoint = 'before-headers' | 'mid-body' | 'slow-reader';

export const LEAVE_POINTS: readonly LeavePoint[] = ['before-headers', 'mid-body', 'slow-reader'];

/** A small seeded generator (mulberry32): a failing run can be replayed with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function requestText(method: string, target: string, host: string): string {
  return `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nAccept-Encoding: gzip, br\r\n\r\n`;
}

/**
 * Sends one request and leaves: `before-headers` closes after a random 0–20 ms without reading,
 * `mid-body` closes on the first bytes received, `slow-reader` reads a few bytes at a time for
 * 50–250 ms, then closes. Never waits more than 2 s.
 */
export async function abandon(origin: URL, method: string, target: string, point: LeavePoint, random: () => number): Promise<void> {
  const socket = net.connect({ host: origin.hostname, port: Number(origin.port) });
  socket.on('error', () => undefined);
  const done = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    setTimeout(() => {
      socket.destroy();
      resolve();
    }, 2_000).unref();
  });
  socket.once('connect', () => {
    if (point === 'slow-reader') socket.pause();
    socket.write(requestText(method, target, origin.host));
    if (point === 'before-headers') {
      setTimeout(() => socket.destroy(), Math.floor(random() * 20));
    } else if (point === 'mid-body') {
      socket.once('data', () => socket.destroy());
    } else {
      void (async () => {
        const until = performance.now() + 50 + random() * 200;
        while (performance.now() < until && !socket.destroyed) {
          socket.read(64);
          await sleep(10);
        }
        socket.destroy();
      })();
    }
  });
  await done;
}

/** Runs `tasks` with at most `concurrency` at a time. */
export async function inBatches(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await task(index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Status and milliseconds of one GET, or a status of 0 when nothing came back within `limitMs`. */
export async function timedGet(url: string, limitMs: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(limitMs) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

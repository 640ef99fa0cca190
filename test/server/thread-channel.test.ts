import { afterEach, describe, expect, it } from 'vitest';
import { announcer, listenOn } from '../../src/site/data/thread-channel.ts';
import { startThread, type StartedThread } from '../../src/server/threads/worker-thread.ts';

const channelWorker = new URL('./workers/channel-worker.ts', import.meta.url);
const started: StartedThread<unknown>[] = [];
const stops: (() => void)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(started.splice(0).map((thread) => thread.close()));
});

async function start(name: string): Promise<void> {
  started.push(await startThread(channelWorker, { name }, name));
}

function collect(name: string): unknown[] {
  const heard: unknown[] = [];
  stops.push(listenOn(name, (data) => heard.push(data)));
  return heard;
}

describe('channels between the threads of one process', () => {
  it('deliver within the thread, on a later turn, each listener its own copy', async () => {
    const first = collect('test:local');
    const second = collect('test:local');
    const message = { count: 1 };
    announcer<typeof message>('test:local')(message);
    expect(first).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(first).toEqual([{ count: 1 }]);
    expect(second).toEqual([{ count: 1 }]);
    (first[0] as { count: number }).count = 2;
    expect(second[0]).toEqual({ count: 1 });
    expect(message.count).toBe(1);
  });

  it('reach the threads this one started, and back, without loading undici for a MessageEvent', async () => {
    const pongs = collect('test:pong');
    await start('a');
    await start('b');
    announcer<string>('test:ping')('hello');
    await expect.poll(() => pongs.length).toBe(2);
    expect(pongs).toEqual(
      expect.arrayContaining([
        { from: 'a', heard: 'hello', undiciLoaded: false },
        { from: 'b', heard: 'hello', undiciLoaded: false },
      ]),
    );
  });

  it('reach a sibling thread through the one that started both, and never come back to the sender', async () => {
    await start('a');
    await start('b');
    const pings = collect('test:ping');
    const pongs = collect('test:pong');
    // As the site tells the subscriptions thread: "a" posts, "b" hears it through this thread.
    started[0]!.post({ type: 'ping', text: 'from a' });
    await expect.poll(() => pongs.length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pings).toEqual(['from a']);
    // "a" hears its own post once (it listens in the same thread), "b" once; nothing echoes.
    expect(pongs).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'a', heard: 'from a' }), expect.objectContaining({ from: 'b', heard: 'from a' })]));
    expect(pongs).toHaveLength(2);
  });

  it('stop delivering once the listener stops', async () => {
    const heard: unknown[] = [];
    const stop = listenOn('test:stopped', (data) => heard.push(data));
    stop();
    announcer<number>('test:stopped')(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual([]);
  });
});

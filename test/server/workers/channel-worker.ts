/**
 * Test worker: answers each message on test:ping with one on test:pong naming itself (and whether
 * undici was loaded); told `ping`, posts on test:ping itself.
 */
import { workerData } from 'node:worker_threads';
import { announcer, listenOn } from '../../../src/site/data/thread-channel.ts';
import { announceReady, onMessages } from '../../../src/server/threads/thread-side.ts';

const { name } = workerData as { name: string };
const pong = announcer<{ from: string; heard: unknown; undiciLoaded: boolean }>('test:pong');
const stop = listenOn('test:ping', (heard) => {
  pong({ from: name, heard, undiciLoaded: (process as NodeJS.Process & { moduleLoadList: string[] }).moduleLoadList.some((entry) => entry.includes('undici')) });
});
const ping = announcer<unknown>('test:ping');
onMessages(
  async () => stop(),
  (message) => {
    if (message.type === 'ping') ping(message.text);
  },
);
announceReady({});

/** Test worker: ready with its workerData; `exit` ends it unasked; close takes `closeMs`. */
import { workerData } from 'node:worker_threads';
import { announceReady, onMessages } from '../../../src/server/threads/thread-side.ts';

const { closeMs = 0, ignoreClose = false } = (workerData ?? {}) as { closeMs?: number; ignoreClose?: boolean };
const keepAlive = setInterval(() => undefined, 1_000);
onMessages(
  async () => {
    if (ignoreClose) await new Promise(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, closeMs));
    clearInterval(keepAlive);
  },
  (message) => {
    if (message.type === 'exit') process.exit(3);
  },
);
announceReady({ echo: workerData });

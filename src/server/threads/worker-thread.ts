/**
 * A part of Porchlight that runs on a thread of its own (the Astro site, the embedded API), so
 * the thread that answers visitors only answers visitors: a render, a data refresh or an API
 * request never stalls a cached hit. Each worker posts one `ready` (or `failed`) message when it
 * is up, takes `close` to stop cleanly, and may take other messages of its own.
 */
import { Worker } from 'node:worker_threads';
import { isChannelEnvelope, linkThread } from '../../site/data/thread-channel.ts';

export type ThreadMessage = { type: string } & Record<string, unknown>;

export interface StartedThread<Ready> {
  ready: Ready;
  post(message: ThreadMessage): void;
  /** Stops the worker: `close` first, then terminate if it has not exited within `graceMs`. */
  close(graceMs?: number): Promise<void>;
  /** Told when the worker exits without having been asked to. */
  onUnexpectedExit(listener: (code: number) => void): void;
  /** The bounds the worker runs with (its heap's, in MB), as Node applied them. */
  resourceLimits: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

/** What a worker's start-up failure looks like on the main thread: its error's name and message. */
export class ThreadStartError extends Error {
  override name = 'ThreadStartError';
  readonly causeName: string;
  /** The system error code, e.g. EADDRINUSE, when there was one. */
  readonly code: string | undefined;
  constructor(causeName: string, message: string, code?: string) {
    super(message);
    this.causeName = causeName;
    this.code = code;
  }
}

function isMessage(value: unknown): value is ThreadMessage {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export interface ThreadOptions {
  /** Where the worker's console output goes; by default the process's own stdout and stderr. */
  output?: NodeJS.WritableStream;
  /**
   * The most its V8 heap may hold (old generation, MB). A thread over it stops, and the process
   * with it (see start.ts: crash-only), rather than growing without bound.
   */
  maxHeapMb?: number;
}

export function startThread<Ready>(entry: URL, workerData: unknown, name: string, options: ThreadOptions = {}): Promise<StartedThread<Ready>> {
  // A small young generation, as `npm start` gives the main thread (--max-semi-space-size=2): each
  // thread has a heap of its own, and short-lived render garbage should not grow resident memory.
  const resourceLimits = { maxYoungGenerationSizeMb: 8, ...(options.maxHeapMb ? { maxOldGenerationSizeMb: options.maxHeapMb } : {}) };
  const worker = new Worker(entry, { workerData, name, stdout: options.output !== undefined, resourceLimits });
  if (options.output) worker.stdout.pipe(options.output, { end: false });
  // The worker's channels (site/data/thread-channel.ts) reach this thread's and, through it, the others'.
  const channels = linkThread((envelope) => worker.postMessage(envelope));
  worker.on('message', (message: unknown) => {
    if (isChannelEnvelope(message)) channels.receive(message);
  });
  worker.once('exit', () => channels.unlink());
  let closing = false;
  const exitListeners: ((code: number) => void)[] = [];
  return new Promise((resolve, reject) => {
    const onEarlyExit = (code: number) => reject(new ThreadStartError('Error', `${name} exited with code ${code} while starting`));
    worker.once('exit', onEarlyExit);
    worker.once('error', (error) => reject(new ThreadStartError(error.name, error.message)));
    worker.on('message', (message: unknown) => {
      if (!isMessage(message)) return;
      if (message.type === 'failed') {
        const code = typeof message.code === 'string' ? message.code : undefined;
        reject(new ThreadStartError(String(message.name ?? 'Error'), String(message.message ?? `${name} failed to start`), code));
        return;
      }
      if (message.type !== 'ready') return;
      worker.off('exit', onEarlyExit);
      worker.on('exit', (code) => {
        if (!closing) for (const listener of exitListeners) listener(code);
      });
      resolve({
        ready: message as Ready,
        post: (outgoing) => worker.postMessage(outgoing),
        onUnexpectedExit: (listener) => exitListeners.push(listener),
        resourceLimits: { ...worker.resourceLimits },
        close: async (graceMs = 10_000) => {
          if (closing) return;
          closing = true;
          const exited = new Promise<void>((done) => worker.once('exit', () => done()));
          worker.postMessage({ type: 'close' });
          const timer = setTimeout(() => void worker.terminate(), graceMs);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}

/** The worker's side of worker-thread.ts: announce readiness or failure, and stop on `close`. */
import { parentPort } from 'node:worker_threads';
import { createLogger, reasonOf } from '../../logging/logger.ts';
import { isChannelEnvelope, linkThread } from '../../site/data/thread-channel.ts';

function port() {
  if (!parentPort) throw new Error('this module runs only inside a worker thread');
  return parentPort;
}

// This thread's channels reach the thread that started it (worker-thread.ts relays them on); what
// comes back is taken in by onMessages, whose listener is the one that keeps the thread alive.
const toParent = linkThread((envelope) => port().postMessage(envelope));

export function announceReady(details: Record<string, unknown>): void {
  port().postMessage({ type: 'ready', ...details });
}

export function announceFailure(error: unknown): void {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  port().postMessage({ type: 'failed', name, message, code });
}

/** Runs `handler` for each message other than `close`; `close` runs `onClose`, then lets the thread end. */
export function onMessages(onClose: () => Promise<void>, handler: (message: { type: string } & Record<string, unknown>) => void = () => undefined): void {
  const parent = port();
  parent.on('message', (message: { type: string } & Record<string, unknown>) => {
    if (isChannelEnvelope(message)) return toParent.receive(message);
    if (message.type !== 'close') return handler(message);
    onClose().finally(() => parent.close());
  });
}

/** Rejections outside a request (Astro swallows some) are reported in one line, never a crash. */
export function reportUnhandledRejections(label: string): void {
  process.on('unhandledRejection', (reason) => {
    createLogger(label).error({ reason: reasonOf(reason) }, `unhandled rejection (${reasonOf(reason)})`);
  });
}

/**
 * Memory per thread: each thread of the process (the front server, the site's renderer, the
 * embedded API) has a V8 heap of its own, and resident memory alone does not say which one
 * grows. A thread answers a question on a thread channel with its own heap, external and
 * ArrayBuffer bytes; the main thread asks, for the metrics and the benchmark.
 */
import { threadId } from 'node:worker_threads';
import { announcer, listenOn } from '../../site/data/thread-channel.ts';

export const MEMORY_ASK_CHANNEL = 'porchlight:memory-ask';
export const MEMORY_REPLY_CHANNEL = 'porchlight:memory-reply';

export interface ThreadMemory {
  thread: string;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** This thread's figures (process.memoryUsage() reports the calling thread's heap; rss is the process's). */
export function ownMemory(thread: string): ThreadMemory {
  const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { thread, heapUsed, heapTotal, external, arrayBuffers };
}

function isThreadMemory(value: unknown): value is ThreadMemory & { askedBy: number } {
  return typeof value === 'object' && value !== null && 'thread' in value && 'heapUsed' in value && 'askedBy' in value;
}

/** Answers every question with this thread's figures, under `thread`; returns the stop function. */
export function answerMemoryQueries(thread: string): () => void {
  const reply = announcer<ThreadMemory & { askedBy: number }>(MEMORY_REPLY_CHANNEL);
  return listenOn(MEMORY_ASK_CHANNEL, (askedBy) => {
    if (typeof askedBy === 'number') reply({ ...ownMemory(thread), askedBy });
  });
}

const ask = announcer<number>(MEMORY_ASK_CHANNEL);

/** This thread's figures and those of every thread that answers within `waitMs`, by thread name. */
export async function threadMemory(self: string, waitMs = 200): Promise<ThreadMemory[]> {
  const answers = new Map<string, ThreadMemory>([[self, ownMemory(self)]]);
  const stop = listenOn(MEMORY_REPLY_CHANNEL, (data) => {
    if (isThreadMemory(data) && data.askedBy === threadId) {
      const { askedBy: _askedBy, ...memory } = data;
      answers.set(memory.thread, memory);
    }
  });
  ask(threadId);
  await new Promise((resolve) => setTimeout(resolve, waitMs).unref());
  stop();
  return [...answers.values()].sort((a, b) => a.thread.localeCompare(b.thread));
}

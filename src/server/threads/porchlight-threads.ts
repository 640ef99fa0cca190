/**
 * Porchlight's worker threads, in one table: the code each runs, its name (as the kernel and the
 * logs show it) and the bound of its V8 heap (old generation, MB), a few times what each holds
 * under load (the site ~30 MB rendering the demo, the subscriptions ~21 MB sending 10,000 mails,
 * see docs/benchmarks.md): a leak ends in a restart, not in swap. Every thread is started from
 * here, so none runs without a bound.
 */
import { threadEntry, type ThreadEntry } from '../thread-entry.ts';
import { startThread, type StartedThread, type ThreadOptions } from './worker-thread.ts';

interface ThreadKind {
  entry: ThreadEntry;
  name: string;
  maxHeapMb: number;
}

export const PORCHLIGHT_THREADS = {
  site: { entry: 'site-worker', name: 'porchlight-site', maxHeapMb: 96 },
  api: { entry: 'service-worker', name: 'porchlight-api', maxHeapMb: 128 },
  subscriptions: { entry: 'subscriptions-worker', name: 'porchlight-subscriptions', maxHeapMb: 96 },
  // Short-lived: parses the configuration once and ends.
  config: { entry: 'config-worker', name: 'porchlight-config', maxHeapMb: 64 },
} as const satisfies Record<string, ThreadKind>;

export type PorchlightThread = keyof typeof PORCHLIGHT_THREADS;

/** What a caller may choose of a thread: where its output goes (the bounds are the table's). */
export type ThreadOutput = Pick<ThreadOptions, 'output'>;

/** Starts one of Porchlight's threads, bounded as the table says. */
export function startPorchlightThread<Ready>(kind: PorchlightThread, workerData: unknown, options: ThreadOutput = {}): Promise<StartedThread<Ready>> {
  const { entry, name, maxHeapMb } = PORCHLIGHT_THREADS[kind];
  return startThread<Ready>(threadEntry(entry), workerData, name, { ...options, maxHeapMb });
}

/**
 * Memory of each thread of a running Porchlight (front, site, api), read from its metrics
 * (`porchlight_thread_memory_bytes`), in MiB: the V8 heap used and allocated, external memory
 * and ArrayBuffers. Resident memory alone does not say which thread holds what.
 */
export interface ThreadMemoryMiB {
  thread: string;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

const KINDS = { heap_used: 'heapUsed', heap_total: 'heapTotal', external: 'external', array_buffers: 'arrayBuffers' } as const;

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Parses the metric's lines out of a Prometheus text exposition. */
export function parseThreadMemory(text: string): ThreadMemoryMiB[] {
  const threads = new Map<string, ThreadMemoryMiB>();
  for (const match of text.matchAll(/^porchlight_thread_memory_bytes\{thread="([^"]+)",kind="([a-z_]+)"\} (\d+(?:\.\d+)?)$/gm)) {
    const [, thread, kind, value] = match;
    const field = KINDS[kind as keyof typeof KINDS];
    if (!thread || !field) continue;
    const entry = threads.get(thread) ?? { thread, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
    entry[field] = mib(Number(value));
    threads.set(thread, entry);
  }
  return [...threads.values()].sort((a, b) => a.thread.localeCompare(b.thread));
}

export async function threadMemoryMiB(metricsUrl: string): Promise<ThreadMemoryMiB[]> {
  const response = await fetch(metricsUrl);
  return parseThreadMemory(await response.text());
}

/** The metrics address a Porchlight started with METRICS_PORT logged at start. */
export function metricsUrlOf(lines: readonly string[]): string | null {
  for (const line of lines) {
    const url = /"metricsUrl":"([^"]+)"/.exec(line)?.[1];
    if (url) return url;
  }
  return null;
}

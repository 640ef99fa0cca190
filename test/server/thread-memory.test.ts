import { describe, expect, it } from 'vitest';
import { answerMemoryQueries, threadMemory } from '../../src/server/threads/thread-memory.ts';
import { parseThreadMemory } from '../../bench/lib/thread-memory.ts';
import { createMetrics } from '../../src/server/metrics.ts';

describe('memory per thread', () => {
  it('gathers each answering thread\'s heap, external and ArrayBuffer bytes beside its own', async () => {
    const stop = answerMemoryQueries('site');
    try {
      const threads = await threadMemory('front', 100);
      expect(threads.map((memory) => memory.thread)).toEqual(['front', 'site']);
      for (const memory of threads) {
        expect(memory.heapUsed).toBeGreaterThan(0);
        expect(memory.heapTotal).toBeGreaterThanOrEqual(memory.heapUsed);
        expect(memory.external).toBeGreaterThan(0);
      }
    } finally {
      stop();
    }
  });

  it('is exported as a metric per thread and kind, which the benchmark reads back', async () => {
    const stop = answerMemoryQueries('site');
    const metrics = createMetrics({ apiOrigin: 'http://127.0.0.1:1', front: () => null, push: () => null });
    try {
      const text = await metrics.registry.metrics();
      const threads = parseThreadMemory(text);
      expect(threads.map((memory) => memory.thread)).toEqual(['front', 'site']);
      expect(threads[0]!.heapUsed).toBeGreaterThan(0);
    } finally {
      metrics.close();
      stop();
    }
  });
});

/** Every thread Porchlight starts runs with a bounded heap: a leak ends in a restart, not in swap. */
import { describe, expect, it } from 'vitest';
import { THREAD_ENTRIES } from '../../src/server/thread-entry.ts';
import { PORCHLIGHT_THREADS, startPorchlightThread } from '../../src/server/threads/porchlight-threads.ts';

describe("Porchlight's threads", () => {
  it('each have a heap bound, the subscriptions thread included', () => {
    const kinds = Object.values(PORCHLIGHT_THREADS);
    expect(kinds.map((kind) => kind.entry).sort()).toEqual([...THREAD_ENTRIES].sort());
    for (const kind of kinds) expect({ name: kind.name, bounded: kind.maxHeapMb > 0 && kind.maxHeapMb <= 128 }).toEqual({ name: kind.name, bounded: true });
    expect(PORCHLIGHT_THREADS.subscriptions.maxHeapMb).toBeGreaterThan(0);
  });

  it('start with the bound of the table, as Node applies it', async () => {
    const thread = await startPorchlightThread<{ config: unknown }>('config', null);
    try {
      expect(thread.resourceLimits.maxOldGenerationSizeMb).toBe(PORCHLIGHT_THREADS.config.maxHeapMb);
    } finally {
      await thread.close();
    }
  });
});

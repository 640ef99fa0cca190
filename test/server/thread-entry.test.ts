/**
 * Threads run what their caller means: code started from the sources starts its threads from the
 * sources, even when `astro build` has left bundles in dist/threads/ (a test would otherwise pass
 * on the last build instead of the code beside it); only the launcher's bundle starts bundles.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFormOf, THREAD_BUNDLE_DIR, THREAD_CODE, THREAD_ENTRIES, threadEntry } from '../../src/server/thread-entry.ts';
import { loadLauncherConfigOnThread } from '../../src/server/threads/config-thread.ts';

const sources = new URL('../../src/server/threads/', import.meta.url);

// A stale bundle for every thread that has none: it announces itself instead of doing its work.
const decoys: string[] = [];
let madeDir = false;
beforeAll(async () => {
  madeDir = !existsSync(THREAD_BUNDLE_DIR);
  await mkdir(THREAD_BUNDLE_DIR, { recursive: true });
  for (const name of THREAD_ENTRIES) {
    const file = fileURLToPath(new URL(`${name}.mjs`, THREAD_BUNDLE_DIR));
    if (existsSync(file)) continue;
    await writeFile(file, "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ type: 'ready', config: 'a stale bundle' });\n");
    decoys.push(file);
  }
});
afterAll(async () => {
  await Promise.all(decoys.map((file) => rm(file, { force: true })));
  if (madeDir) await rm(THREAD_BUNDLE_DIR, { recursive: true, force: true });
});

describe('which code a thread runs', () => {
  it('is the sources, for code running from the sources, bundles beside them or not', () => {
    expect(THREAD_CODE).toBe('source');
    for (const name of THREAD_ENTRIES) {
      expect(existsSync(fileURLToPath(new URL(`${name}.mjs`, THREAD_BUNDLE_DIR)))).toBe(true);
      expect(threadEntry(name).href).toBe(new URL(`${name}.ts`, sources).href);
      expect(existsSync(threadEntry(name))).toBe(true);
    }
  });

  it('is what a thread started from here actually runs', async () => {
    const config = await loadLauncherConfigOnThread();
    expect(config).not.toBe('a stale bundle');
    expect(config.launcher.PORT).toBeTypeOf('number');
  });

  it("is the bundles for the launcher's bundle, and only for it", () => {
    expect(codeFormOf(new URL('main.mjs', THREAD_BUNDLE_DIR).href)).toBe('bundle');
    expect(codeFormOf(new URL('thread-entry-a1b2c3.mjs', THREAD_BUNDLE_DIR).href)).toBe('bundle');
    expect(codeFormOf(new URL('../../src/server/thread-entry.ts', import.meta.url).href)).toBe('source');
    expect(codeFormOf(new URL('../../dist/server/entry.mjs', import.meta.url).href)).toBe('source');
    expect(threadEntry('site-worker', 'bundle').href).toBe(new URL('site-worker.mjs', THREAD_BUNDLE_DIR).href);
  });
});

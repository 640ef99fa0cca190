/**
 * Where a worker thread's code is: its bundle in dist/threads/ (built by `astro build`, see
 * threads/thread-bundles.ts) when there is one, else its TypeScript source (a run without a
 * build, and tests). This module is as deep as dist/threads/, so it resolves the same from the
 * source tree and from the launcher's own bundle.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const THREAD_ENTRIES = ['site-worker', 'service-worker', 'subscriptions-worker', 'config-worker'] as const;
/** The launcher itself (src/server/main.ts), bundled beside the threads. */
export const LAUNCHER_ENTRY = 'main';
export type ThreadEntry = (typeof THREAD_ENTRIES)[number];

export const THREAD_BUNDLE_DIR = new URL('../../dist/threads/', import.meta.url);

export function threadEntry(name: ThreadEntry): URL {
  const bundle = new URL(`${name}.mjs`, THREAD_BUNDLE_DIR);
  return existsSync(fileURLToPath(bundle)) ? bundle : new URL(`./threads/${name}.ts`, import.meta.url);
}

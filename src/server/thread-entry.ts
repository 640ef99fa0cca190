/**
 * Where a worker thread's code is. A launcher runs its threads in the form it runs itself: the
 * bundled launcher (dist/threads/main.mjs, what `npm start` runs; built by `astro build`, see
 * threads/thread-bundles.ts) starts the bundles beside it; the TypeScript sources (`node
 * src/server/main.ts`, tests, the exporter) start the sources. Never whichever happens to exist:
 * a bundle left by the last build would otherwise run in place of the sources being tested.
 * This module is as deep as dist/threads/, so it resolves the same from the source tree and from
 * the launcher's own bundle.
 */
export const THREAD_ENTRIES = ['site-worker', 'service-worker', 'subscriptions-worker', 'config-worker'] as const;
/** The launcher itself (src/server/main.ts), bundled beside the threads. */
export const LAUNCHER_ENTRY = 'main';
export type ThreadEntry = (typeof THREAD_ENTRIES)[number];

export const THREAD_BUNDLE_DIR = new URL('../../dist/threads/', import.meta.url);

export type ThreadCode = 'bundle' | 'source';

/** The form of the code at `moduleUrl`: a bundle is JavaScript in dist/threads/, anything else is the sources. */
export function codeFormOf(moduleUrl: string): ThreadCode {
  return moduleUrl.startsWith(THREAD_BUNDLE_DIR.href) && moduleUrl.endsWith('.mjs') ? 'bundle' : 'source';
}

/** The form this launcher runs in, and so the form of the threads it starts. */
export const THREAD_CODE: ThreadCode = codeFormOf(import.meta.url);

const SOURCE_DIR = new URL('../../src/server/threads/', import.meta.url);

export function threadEntry(name: ThreadEntry, code: ThreadCode = THREAD_CODE): URL {
  return code === 'bundle' ? new URL(`${name}.mjs`, THREAD_BUNDLE_DIR) : new URL(`${name}.ts`, SOURCE_DIR);
}


/**
 * The worker threads' code as plain JavaScript, built with the site (`astro build`) into
 * dist/threads/. Node strips TypeScript types with a WebAssembly compiler that every thread
 * loading a .ts file instantiates for itself (about 17 MB resident each, measured); a thread
 * that runs a bundle never loads it. Packages stay external (resolved from node_modules as
 * usual). dist/threads/ sits as deep as src/server/, so paths relative to a module
 * (site-handler.ts's '../../dist/server/entry.mjs') mean the same in the bundle.
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { LAUNCHER_ENTRY, THREAD_BUNDLE_DIR, THREAD_ENTRIES } from '../thread-entry.ts';

/** The bundler's input and rules, shared by the build and the test of what each thread loads. */
export function threadBundleInput(): Record<string, string> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return { ...Object.fromEntries(THREAD_ENTRIES.map((name) => [name, `${here}${name}.ts`])), [LAUNCHER_ENTRY]: `${here}../${LAUNCHER_ENTRY}.ts` };
}

/** Bare specifiers (node:*, packages) are loaded at run time; only our own modules are bundled. */
export const EXTERNAL_AT_RUN_TIME = /^[^./]/;

export async function bundleThreads(): Promise<void> {
  const { build } = await import('rolldown');
  await build({
    input: threadBundleInput(),
    platform: 'node',
    external: EXTERNAL_AT_RUN_TIME,
    logLevel: 'warn',
    output: { dir: fileURLToPath(THREAD_BUNDLE_DIR), format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs', cleanDir: true },
  });
}

/** Builds the bundles once Astro has built the site. */
export function threadBundles(): AstroIntegration {
  return { name: 'porchlight-thread-bundles', hooks: { 'astro:build:done': () => bundleThreads() } };
}

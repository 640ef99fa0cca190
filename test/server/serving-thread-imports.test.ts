/**
 * What the serving thread loads at start, read from the launcher's bundle as `astro build` makes
 * it: a module once loaded stays in the thread's heap for good, so what only a start-up check or
 * another thread needs must not be reachable from the launcher by static imports.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rolldown } from 'rolldown';
import { EXTERNAL_AT_RUN_TIME, threadBundleInput } from '../../src/server/threads/thread-bundles.ts';
import { LAUNCHER_ENTRY } from '../../src/server/thread-entry.ts';

interface Loaded {
  packages: Set<string>;
  modules: string[];
}

async function loadedFrom(entry: string, { dynamic = false } = {}): Promise<Loaded> {
  const bundle = await rolldown({ input: threadBundleInput(), platform: 'node', external: EXTERNAL_AT_RUN_TIME, logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' });
  await bundle.close();
  const chunks = new Map(output.flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
  const loaded: Loaded = { packages: new Set(), modules: [] };
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    const chunk = chunks.get(fileName);
    if (!chunk) {
      loaded.packages.add(fileName);
      return;
    }
    loaded.modules.push(...chunk.moduleIds);
    for (const imported of dynamic ? [...chunk.imports, ...chunk.dynamicImports] : chunk.imports) visit(imported);
  };
  visit(`${entry}.mjs`);
  return loaded;
}

describe('the serving thread at start', () => {
  it('loads neither zod, the message catalogs, undici nor prom-client: the configuration is checked on a thread that exits', async () => {
    const { packages, modules } = await loadedFrom(LAUNCHER_ENTRY);
    expect(packages.has('zod')).toBe(false);
    expect(packages.has('undici')).toBe(false);
    // Metrics are loaded when METRICS_PORT asks for them.
    expect(packages.has('prom-client')).toBe(false);
    expect(modules.filter((id) => /src\/site\/(config|i18n\/)/.test(id) && !id.endsWith('config-error.ts'))).toEqual([]);
    // The check is real: the launcher does load what it serves with.
    expect(packages.has('node:zlib')).toBe(true);
    expect(modules.some((id) => id.endsWith('src/server/front/front-server.ts'))).toBe(true);
  }, 60_000);

  it("never imports node:http as an ES module, in any thread but the site's (Astro loads undici there anyway)", async () => {
    // Its namespace reads the lazy http.WebSocket, which loads Node's bundled undici and http2.
    for (const entry of [LAUNCHER_ENTRY, 'service-worker', 'subscriptions-worker', 'config-worker']) {
      const { packages, modules } = await loadedFrom(entry, { dynamic: true });
      expect({ entry, esmHttp: packages.has('node:http') }).toEqual({ entry, esmHttp: false });
      expect(modules.length).toBeGreaterThan(0);
    }
    const api = await loadedFrom('service-worker', { dynamic: true });
    expect(api.modules.some((id) => id.endsWith('src/service/http/node-http.ts'))).toBe(true);
  }, 60_000);

  it('leaves them to the thread that checks the configuration', async () => {
    const { packages, modules } = await loadedFrom('config-worker');
    expect(packages.has('zod')).toBe(true);
    expect(modules.some((id) => id.endsWith('src/site/config.ts'))).toBe(true);
  }, 60_000);

  it("the site's data reaches the API without undici (its WebAssembly parser alone is ~20 MiB resident)", async () => {
    const bundle = await rolldown({ input: { 'site-data': fileURLToPath(new URL('../../src/site/data/site-data.ts', import.meta.url)) }, platform: 'node', external: EXTERNAL_AT_RUN_TIME, logLevel: 'silent' });
    const { output } = await bundle.generate({ format: 'esm' });
    await bundle.close();
    const imported = new Set(output.flatMap((item) => (item.type === 'chunk' ? [...item.imports, ...item.dynamicImports] : [])));
    expect(imported.has('undici')).toBe(false);
    expect(imported.has('zod')).toBe(true);
  }, 60_000);
});

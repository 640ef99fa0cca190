/**
 * Configuration travels as data: after start-up nothing in Porchlight writes process.env (a
 * thread would otherwise see values the operator never set, named like settings). The two
 * writes left are switches read before anything else, not configuration.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');
const WRITE = /process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[[^\]]+\])\s*=(?!=)|delete\s+process\.env|Object\.assign\(\s*process\.env/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|mts|mjs|astro)$/.test(entry.name) ? [full] : [];
  });
}

describe('process.env', () => {
  it('is written only by the two start-up switches', () => {
    const writes = sources(src).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(WRITE)].map((match) => `${path.relative(src, file)}: ${match[0].replace(/\s+/g, ' ')}`));
    expect(writes.sort()).toEqual([
      // Where the exporter's log lines go, set before anything logs (stdout is its summary's).
      'export/main.ts: process.env.PORCHLIGHT_LOG_STDERR =',
      // @astrojs/node's own switch, in the site thread's copy of the environment: no server of its own.
      'server/site-handler.ts: process.env.ASTRO_NODE_AUTOSTART =',
    ]);
  });
});

/**
 * One node:http loader on the site's side (src/api/node-http.ts) and the service's own: node:http
 * is never imported as an ES module (that loads Node's bundled undici and http2), and no other
 * module loads it for itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

describe('node:http', () => {
  it('is loaded by the two loaders only, one each side of the HTTP boundary', () => {
    const loaders = sources(src).filter((file) => {
      const text = readFileSync(file, 'utf8');
      const imported = /^import\s+(?!type\b)[^;]*from\s+'node:https?'/m.test(text);
      const required = /\(\s*'node:https?'\s*\)/.test(text);
      return imported || required;
    });
    expect(loaders.map((file) => path.relative(src, file)).sort()).toEqual(['api/node-http.ts', 'service/http/node-http.ts']);
  });
});

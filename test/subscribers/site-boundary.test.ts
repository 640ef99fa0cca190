/**
 * The subscribers use the site only through its public surface (src/site/public.ts), so the
 * site can move its own files without breaking a neighbour.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SITE = join(ROOT, 'src/site');
const PUBLIC = join(SITE, 'public.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs|astro)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file names: static and type imports, re-exports, side-effect and dynamic imports. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const pattern of [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g]) {
    for (const match of source.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

/** The site files `dir`'s sources import, other than the public module. */
function siteInsidesImportedFrom(dir: string): string[] {
  return sourceFiles(dir).flatMap((file) =>
    specifiers(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => (target === SITE || target.startsWith(`${SITE}/`)) && target !== PUBLIC)
      .map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
  );
}

describe('the site boundary', () => {
  it('src/subscribers imports no site file but src/site/public.ts', () => {
    expect(siteInsidesImportedFrom(join(ROOT, 'src/subscribers'))).toEqual([]);
  });

  it('the check sees every kind of import (it would fail on an inside file)', () => {
    const samples = [
      "import { translator } from '../site/i18n/translator.ts';",
      "import type { Snapshot } from '../site/data/snapshot.ts';",
      "export { escapeMarkup } from '../site/lib/markup.ts';",
      "import '../site/lib/css.ts';",
      "const view = await import('../site/view/page-context.ts');",
    ];
    for (const sample of samples) expect(specifiers(sample)).toHaveLength(1);
    // And the subscribers do use the site, through the public module.
    const all = sourceFiles(join(ROOT, 'src/subscribers')).flatMap((file) => specifiers(readFileSync(file, 'utf8')).map((specifier) => resolve(dirname(file), specifier)));
    expect(all).toContain(PUBLIC);
  });
});

/**
 * The subscribers use the site only through its public surface (src/site/public.ts), so the
 * site can move its own files without breaking a neighbour; and the site never imports the rooms
 * built on it (a cycle between rooms, see docs/site.md).
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

/**
 * The rooms above the site: it may import none of them. `src/auth` (sessions, cookies, CSRF,
 * throttle, passwords) is not among them: it is a floor of sign-in pieces beside `src/store`,
 * used by the console and by the private pages' sign-in alike, and it imports only the floor.
 */
const ABOVE_THE_SITE = ['src/subscribers', 'src/server', 'src/cli', 'src/console', 'src/export'];

/** Every import from `dir`'s sources into one of `rooms`, as `file → target`. */
function importsInto(dir: string, rooms: readonly string[]): string[] {
  const roots = rooms.map((room) => join(ROOT, room));
  const found = sourceFiles(dir).flatMap((file) =>
    specifiers(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => roots.some((root) => target === root || target.startsWith(`${root}/`)))
      .map((target) => `${relative(ROOT, file)} → ${relative(ROOT, target)}`),
  );
  return [...new Set(found)].sort();
}

describe('the site boundary', () => {
  it('src/site imports none of the rooms above it', () => {
    expect(importsInto(SITE, ABOVE_THE_SITE)).toEqual([]);
  });

  it('src/auth, below the site and the console, imports nothing of Porchlight but the storage floor', () => {
    const rooms = ['src/site', 'src/subscribers', 'src/server', 'src/cli', 'src/console', 'src/export', 'src/audiences', 'src/service', 'src/api', 'src/contract'];
    expect(importsInto(join(ROOT, 'src/auth'), rooms)).toEqual([]);
  });

  it('the upward check finds an import of a room above (it would fail on one)', () => {
    // The same walk over rooms that do import others finds them.
    expect(importsInto(join(ROOT, 'src/subscribers'), ['src/site'])).not.toEqual([]);
    expect(importsInto(join(ROOT, 'src/console'), ['src/auth'])).not.toEqual([]);
  });

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

/**
 * The layers the storage floor sits in: `src/store/` is generic (no domain knowledge), below both
 * the site's side and the embedded API; the service imports only itself, `src/contract/` and the
 * floor; the floor imports none of the rooms above it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
}

/** The `src/` rooms a file imports from by relative path (`src/contract`, `src/store`, …). */
function importedRooms(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const rooms = new Set<string>();
  for (const match of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = relative(ROOT, resolve(ROOT, dirname(file), match[1] ?? ''));
    const [top, room] = target.split('/');
    if (top === 'src' && room) rooms.add(`src/${room}`);
  }
  return [...rooms];
}

describe('layers', () => {
  it('the embedded API imports only itself, the contract and the storage floor', () => {
    const outside = sources('src/service').flatMap((file) => importedRooms(file).filter((room) => !['src/service', 'src/contract', 'src/store'].includes(room)).map((room) => `${file} → ${room}`));
    expect(outside).toEqual([]);
  });

  it('the storage floor imports nothing above it', () => {
    const outside = sources('src/store').flatMap((file) => importedRooms(file).filter((room) => room !== 'src/store').map((room) => `${file} → ${room}`));
    expect(outside).toEqual([]);
  });

  it('sees the imports it judges (the service does import the floor)', () => {
    expect(importedRooms('src/service/store/store.ts')).toContain('src/store');
  });
});

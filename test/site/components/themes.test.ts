import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureAll, parseBlocks, themeVariants } from '../../../themes/contrast.ts';

const themesDir = new URL('../../../themes/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, themesDir), 'utf8');

describe('themes', () => {
  it('meet their contrast minimum for every pair the components paint', () => {
    const failures = measureAll()
      .filter((m) => m.ratio < m.minimum)
      .map((m) => `${m.variant}: ${m.foreground} on ${m.background} = ${m.ratio.toFixed(2)} (< ${m.minimum})`);
    expect(failures).toEqual([]);
  });

  it('set the same token names in every variant', () => {
    const names = [...themeVariants().values()].map((tokens) => [...tokens.keys()].sort());
    for (const list of names) expect(list).toEqual(names[0]);
  });

  it("default's dark variant repeats dark.css exactly", () => {
    const variants = themeVariants();
    expect(Object.fromEntries(variants.get('default (dark)') ?? [])).toEqual(Object.fromEntries(variants.get('dark') ?? []));
  });

  it('namespace every custom property with --pl-', () => {
    for (const file of ['default.css', 'dark.css', 'high-contrast.css']) {
      for (const block of parseBlocks(read(file)).values()) {
        for (const name of block.keys()) expect(name === 'color-scheme' || name.startsWith('--pl-')).toBe(true);
      }
    }
  });

  it('document every token in themes/README.md', () => {
    const readme = read('README.md');
    const tokens = [...(themeVariants().get('default (light)')?.keys() ?? [])].filter((name) => name.startsWith('--pl-'));
    expect(tokens.length).toBeGreaterThan(30);
    expect(tokens.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it('load no web fonts', () => {
    for (const file of readdirSync(themesDir).filter((name) => name.endsWith('.css'))) {
      expect(read(file)).not.toMatch(/@font-face|url\(/);
    }
  });
});

import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../src/site/', import.meta.url);
const astroFiles = ['components/', 'layouts/'].flatMap((dir) =>
  readdirSync(new URL(dir, root))
    .filter((name) => name.endsWith('.astro'))
    .map((name) => ({ name: `${dir}${name}`, source: readFileSync(new URL(`${dir}${name}`, root), 'utf8') })),
);

describe('component sources', () => {
  it("carry no <style> blocks but the documents' head's two: the site's one stylesheet and the owner CSS", () => {
    const layouts = ['components/DocumentHead.astro'];
    for (const { name, source } of astroFiles) {
      const styles = source.match(/<style\b[^>]*>/g) ?? [];
      const allowed = layouts.includes(name) ? ['<style is:inline set:html={siteStylesheet.text} />', '<style is:inline set:html={ownerCss} />'] : [];
      expect(styles.filter((tag) => !allowed.some((ok) => ok.startsWith(tag.replace(/\s*\/?>$/, ''))))).toEqual([]);
    }
  });

  it('never write style attributes, inline handlers or colour values', () => {
    for (const { source } of astroFiles) {
      expect(source).not.toMatch(/\sstyle=|\son[a-z]+=|#[0-9a-f]{3,6}\b|rgb\(|hsl\(/i);
    }
  });

  it('component stylesheets use tokens, never colour literals', () => {
    const dir = new URL('styles/components/', root);
    const files = [...readdirSync(dir).map((name) => new URL(name, dir)), new URL('styles/layout.css', root), new URL('styles/base.css', root)];
    for (const file of files) {
      const css = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      expect(css).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(|(?<![\w-])(white|black|red|green|blue)(?![\w-])/i);
    }
  });
});

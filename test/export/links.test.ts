import { describe, expect, it } from 'vitest';
import { classifyReference, cssReferences, decodeAttribute, htmlReferences } from '../../src/export/links.ts';

describe('htmlReferences', () => {
  it('finds the href and src of links, stylesheets, images and scripts, decoded', () => {
    const html = `<!doctype html><html><head><link rel="icon" href="data:,"><link rel="stylesheet" href="/_astro/global.css"></head>
      <body><a class="x" href="/acme/incidents/a&amp;b/">A</a><img src='/logo.svg' alt=""><script src=/s.js></script>
      <p>href="/not-a-link/"</p><div data-href="/nope/"></div><a href="https://acme.example/blog" rel="noopener">blog</a></body></html>`;
    expect(htmlReferences(html)).toEqual(['data:,', '/_astro/global.css', '/acme/incidents/a&b/', '/logo.svg', '/s.js', 'https://acme.example/blog']);
  });

  it('decodes numeric and named character references', () => {
    expect(decodeAttribute('/a&#x2F;b&#47;c&quot;&lt;&unknown;')).toBe('/a/b/c"<&unknown;');
  });
});

describe('cssReferences', () => {
  it('finds url() and @import targets in any quoting', () => {
    expect(cssReferences(`@import "/base.css"; a{background:url(/i.svg)} b{background:url( '/j.png' )} c{mask:url("data:image/svg+xml,x")}`)).toEqual(['/base.css', '/i.svg', '/j.png', 'data:image/svg+xml,x']);
  });
});

describe('classifyReference', () => {
  const root = { host: 'localhost', basePath: '' };
  const below = { host: 'localhost', basePath: '/status' };

  it.each([
    ['/acme/history/', '/acme/', root, { kind: 'internal', path: '/acme/history/' }],
    ['history/2026-10/', '/acme/', root, { kind: 'internal', path: '/acme/history/2026-10/' }],
    ['http://localhost/acme/#top', '/', root, { kind: 'internal', path: '/acme/' }],
    ['/status/acme/', '/', below, { kind: 'internal', path: '/acme/' }],
    ['/status', '/acme/', below, { kind: 'internal', path: '/' }],
    ['https://acme.example/blog', '/acme/', root, { kind: 'external' }],
    ['mailto:support@acme.example', '/acme/', root, { kind: 'external' }],
    ['data:,', '/acme/', root, { kind: 'external' }],
    ['#main', '/acme/', root, { kind: 'external' }],
    ['//other.example/x', '/acme/', root, { kind: 'external' }],
  ] as const)('%s on page %s of %o', (reference, page, tree, expected) => {
    expect(classifyReference(reference, page, tree)).toEqual(expected);
  });

  it('reports what a static folder cannot serve: a query string, or a link outside the base path', () => {
    expect(classifyReference('/acme/history?month=2026-10', '/acme/', root)).toMatchObject({ kind: 'unexportable' });
    expect(classifyReference('/acme/', '/', below)).toEqual({ kind: 'unexportable', reason: '/acme/ is outside /status/' });
  });
});

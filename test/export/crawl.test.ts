import { describe, expect, it } from 'vitest';
import { crawlTree, DataUnavailableError } from '../../src/export/crawl.ts';
import type { TreeAddress } from '../../src/export/links.ts';
import type { SiteClient, SiteResponse } from '../../src/export/site-client.ts';

type Answer = Partial<SiteResponse> & { status: number; text?: string };

/** A site that answers from a table, and remembers what it was asked. */
function fakeSite(table: Record<string, Answer>) {
  const asked: string[] = [];
  const client: SiteClient = {
    async get(path: string, tree: TreeAddress) {
      asked.push(`${tree.host}${path}`);
      const answer = table[path] ?? { status: 404, text: 'not found page', headers: { 'content-type': 'text/html' } };
      return { status: answer.status, headers: answer.headers ?? {}, body: answer.body ?? Buffer.from(answer.text ?? '') };
    },
    close: async () => undefined,
  };
  return { client, asked };
}

const html = (text: string): Answer => ({ status: 200, text, headers: { 'content-type': 'text/html; charset=utf-8' } });
const notFound: Answer = { status: 404, text: '<h1>Page not found</h1>', headers: { 'content-type': 'text/html' } };

const text = (files: Map<string, Buffer>) => Object.fromEntries([...files].map(([file, body]) => [file, body.toString()]));

describe('crawlTree', () => {
  it('follows every internal link from the roots and writes each address as a file, plus the 404 page', async () => {
    const { client, asked } = fakeSite({
      '/404.html': notFound,
      '/acme/': html('<link rel="stylesheet" href="/_astro/site.css"><a href="/acme/incidents/1/">1</a><a href="/acme/history/">h</a><a href="https://elsewhere.example/">x</a>'),
      '/acme/incidents/1/': html('<a href="/acme/">home</a><a href="/acme/history/">h</a>'),
      '/acme/history/': html('<a href="/acme/history/2026-10/">older</a>'),
      '/acme/history/2026-10/': html('<a href="/acme/incidents/1/">1</a>'),
      '/_astro/site.css': { status: 200, text: 'a{background:url(/_astro/dot.svg)}', headers: { 'content-type': 'text/css' } },
      '/_astro/dot.svg': { status: 200, text: '<svg/>', headers: { 'content-type': 'image/svg+xml' } },
    });
    const files = await crawlTree(client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: [] }, () => undefined);
    expect(Object.keys(text(files)).sort()).toEqual([
      '404.html',
      '_astro/dot.svg',
      '_astro/site.css',
      'acme/history/2026-10/index.html',
      'acme/history/index.html',
      'acme/incidents/1/index.html',
      'acme/index.html',
    ]);
    expect(text(files)['404.html']).toContain('Page not found');
    // Each address once, and nothing outside the tree.
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.some((address) => address.includes('elsewhere'))).toBe(false);
  });

  it('reads links below the base path it renders with, and writes the files without it', async () => {
    const { client } = fakeSite({
      '/404.html': notFound,
      '/acme/': html('<a href="/status/acme/incidents/1/">1</a><a href="/acme/other/">outside</a>'),
      '/acme/incidents/1/': html('ok'),
    });
    const warnings: string[] = [];
    const files = await crawlTree(client, { host: 'localhost', basePath: '/status' }, { pages: ['/acme/'], outputs: [] }, (message) => warnings.push(message));
    expect([...files.keys()].sort()).toEqual(['404.html', 'acme/incidents/1/index.html', 'acme/index.html']);
    expect(warnings).toEqual([expect.stringContaining('/acme/other/ is outside /status/')]);
  });

  it('turns a redirect into a page that sends the browser on, and follows it', async () => {
    const { client } = fakeSite({ '/404.html': notFound, '/': { status: 302, headers: { location: '/status/acme/' } }, '/acme/': html('page') });
    const files = await crawlTree(client, { host: 'localhost', basePath: '/status' }, { pages: ['/'], outputs: [] }, () => undefined);
    expect(text(files)['index.html']).toContain('<meta http-equiv="refresh" content="0; url=/status/acme/">');
    expect(text(files)['acme/index.html']).toBe('page');
  });

  it('never follows an owner link to the exporter\'s own index', async () => {
    const { client, asked } = fakeSite({
      '/404.html': notFound,
      '/acme/': html('<a href="/porchlight-export.json">x</a>'),
      '/porchlight-export.json': { status: 200, text: '{}', headers: { 'content-type': 'application/json' } },
    });
    const files = await crawlTree(client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: [] }, () => undefined);
    expect(asked).not.toContain('localhost/porchlight-export.json');
    expect(files.has('porchlight-export.json')).toBe(false);
  });

  it('fetches each output by name, and gives up on the tree when one that every page publishes answers 404', async () => {
    const { client } = fakeSite({
      '/404.html': notFound,
      '/acme/': html('page'),
      '/acme/history.atom': { status: 200, text: '<feed/>', headers: { 'content-type': 'application/atom+xml' } },
      '/acme/widget': html('widget'),
    });
    const files = await crawlTree(client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: ['/acme/history.atom', '/acme/widget'] }, () => undefined);
    expect(text(files)).toMatchObject({ 'acme/history.atom': '<feed/>', 'acme/widget/index.html': 'widget' });
    const missing = crawlTree(client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: ['/acme/history.atom', '/acme/badge.svg'] }, () => undefined);
    await expect(missing).rejects.toThrow(/badge\.svg.*answered 404/);
  });

  it('reports a dead link and leaves it out', async () => {
    const { client } = fakeSite({ '/404.html': notFound, '/acme/': html('<a href="/acme/incidents/gone/">x</a>') });
    const warnings: string[] = [];
    const files = await crawlTree(client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: [] }, (message) => warnings.push(message));
    expect([...files.keys()].sort()).toEqual(['404.html', 'acme/index.html']);
    expect(warnings).toEqual(['localhost/acme/incidents/gone/ (linked from /acme/) answered 404: a dead link, left out']);
  });

  it('gives up on the whole tree when the site has no data to show, or fails', async () => {
    const unavailable = fakeSite({ '/404.html': notFound, '/acme/': { status: 503, text: 'unavailable' } });
    await expect(crawlTree(unavailable.client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: [] }, () => undefined)).rejects.toThrow(DataUnavailableError);
    const broken = fakeSite({ '/404.html': notFound, '/acme/': { status: 500, text: 'oops' } });
    await expect(crawlTree(broken.client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: [] }, () => undefined)).rejects.toThrow('localhost/acme/ answered 500');
    const noNotFound = fakeSite({ '/404.html': html('a page'), '/acme/': html('page') });
    await expect(crawlTree(noNotFound.client, { host: 'localhost', basePath: '' }, { pages: ['/acme/'], outputs: [] }, () => undefined)).rejects.toThrow('not the 404 page');
  });
});

import { describe, expect, it } from 'vitest';
import type { StatusPage } from '../../../src/contract/index.ts';
import { unknownSlug } from '../../../src/site/view/unknown-name.ts';

const pages = [
  { id: 'p1', name: 'Acme', slug: 'acme', isPublic: true, monitors: [] },
  { id: 'p2', name: 'Secret', slug: 'secret', isPublic: false, monitors: [] },
] as unknown as StatusPage[];

describe('unknownSlug', () => {
  it('names a slug-like first segment that no public page has', () => {
    expect(unknownSlug(pages, '/newpage')).toBe('newpage');
    expect(unknownSlug(pages, '/new-page/history.rss')).toBe('new-page');
    // A private page is not shown: it may have just been made public.
    expect(unknownSlug(pages, '/secret/')).toBe('secret');
  });

  it('is null for a public page, the index and the site\'s own files', () => {
    expect(unknownSlug(pages, '/acme')).toBeNull();
    expect(unknownSlug(pages, '/acme/incidents/1')).toBeNull();
    for (const path of ['/', '/robots.txt', '/sitemap.xml', '/_astro/x.css', '/favicon.ico', '/porchlight-export.json', '/Acme', '/a--b', `/${'a'.repeat(65)}`]) {
      expect(unknownSlug(pages, path), path).toBeNull();
    }
  });
});

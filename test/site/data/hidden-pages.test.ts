import { describe, expect, it } from 'vitest';
import type { StatusPage } from '../../../src/contract/index.ts';
import { dropsStored, hiddenPages } from '../../../src/site/data/hidden-pages.ts';

const page = (slug: string, fields: Partial<StatusPage> = {}) => ({ id: slug, name: slug, slug, isPublic: true, customDomain: null, monitors: [], ...fields }) as unknown as StatusPage;

describe('hiddenPages', () => {
  const acme = page('acme', { customDomain: 'Status.Acme.test' });
  const shop = page('shop');
  it('is null when nothing public went away (a new page, a change of name or CSS)', () => {
    expect(hiddenPages([acme, shop], [acme, shop, page('new')])).toBeNull();
    expect(hiddenPages([acme], [{ ...acme, name: 'Acme 2', customCss: 'body{}' } as StatusPage])).toBeNull();
    expect(hiddenPages([page('private', { isPublic: false })], [])).toBeNull();
  });

  it('names a page made non-public, deleted, or moved off its domain', () => {
    expect(hiddenPages([acme, shop], [{ ...acme, isPublic: false }, shop])).toEqual({ slugs: ['acme'], domains: ['status.acme.test'] });
    expect(hiddenPages([acme, shop], [acme])).toEqual({ slugs: ['shop'], domains: [] });
    expect(hiddenPages([acme], [{ ...acme, customDomain: null }])).toEqual({ slugs: [], domains: ['status.acme.test'] });
    expect(hiddenPages([acme], [{ ...acme, slug: 'acme-2' }])).toEqual({ slugs: ['acme'], domains: [] });
  });
});

describe('dropsStored', () => {
  const hidden = { slugs: ['acme'], domains: ['status.acme.test'] };
  it('drops every stored answer of the hidden page, on the main host and on its domain', () => {
    for (const path of ['/acme', '/acme/', '/acme/history.rss', '/acme/badge.svg', '/acme/de/']) expect(dropsStored({ host: 'status.example.com', path }, hidden), path).toBe(true);
    expect(dropsStored({ host: 'status.acme.test:8443', path: '/' }, hidden)).toBe(true);
    expect(dropsStored({ host: 'STATUS.ACME.TEST', path: '/history.atom' }, hidden)).toBe(true);
  });

  it('drops the main host\'s listings of pages, and keeps the other pages', () => {
    for (const path of ['/', '/sitemap.xml', '/porchlight-export.json']) expect(dropsStored({ host: 'status.example.com', path }, hidden), path).toBe(true);
    expect(dropsStored({ host: 'status.example.com', path: '/shop/' }, hidden)).toBe(false);
    expect(dropsStored({ host: 'status.example.com', path: '/acme-2/' }, hidden)).toBe(false);
    expect(dropsStored({ host: 'status.shop.test', path: '/shop/' }, hidden)).toBe(false);
  });
});

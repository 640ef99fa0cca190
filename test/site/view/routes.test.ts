import { describe, expect, it } from 'vitest';
import { historyView } from '../../../src/site/view/history-view.ts';
import { incidentPageView } from '../../../src/site/view/incident-page-view.ts';
import { indexView } from '../../../src/site/view/index-view.ts';
import { findPageByHost, findPageBySlug, normalizeHost } from '../../../src/site/view/routing.ts';
import { incident, now, page, snapshot } from './fixtures.ts';

const options = { basePath: '/acme', now, stale: false };

describe('routing', () => {
  const pages = snapshot().pages;
  it.each([
    ['status.acme.test', 'acme'],
    ['STATUS.Acme.Test:8443', 'acme'],
    ['status.acme.test.', 'acme'],
    ['internal.acme.test', null],
    ['evil.test', null],
    ['', null],
  ])('host %j finds page %j', (host, slug) => {
    expect(findPageByHost(pages, host)?.slug ?? null).toBe(slug);
  });

  it('never finds a private page by slug', () => {
    expect(findPageBySlug(pages, 'acme')?.id).toBe('p1');
    expect(findPageBySlug(pages, 'internal')).toBeNull();
  });

  it('normalizes IPv6 hosts with ports', () => {
    expect(normalizeHost('[::1]:4321')).toBe('[::1]');
  });
});

describe('incidentPageView', () => {
  it('shows an incident of the page with its whole timeline, linking home and history as directory URLs', () => {
    const view = incidentPageView(snapshot(), page(), 'i1', options);
    expect(view?.incident.updates).toHaveLength(2);
    expect(view?.incident.href).toBe('/acme/incidents/i1/');
    expect(view?.historyHref).toBe('/acme/history/');
    expect(view?.branding.homeHref).toBe('/acme/');
  });

  it('links from the root on a custom domain, and below a base path', () => {
    expect(incidentPageView(snapshot(), page(), 'i1', { ...options, basePath: '' })?.historyHref).toBe('/history/');
    expect(incidentPageView(snapshot(), page(), 'i1', { ...options, basePath: '' })?.branding.homeHref).toBe('/');
    expect(incidentPageView(snapshot(), page(), 'i1', { ...options, basePath: '/status/acme' })?.incident.href).toBe('/status/acme/incidents/i1/');
  });

  it('is null for an unknown incident or one that does not concern the page', () => {
    const other = incident('i9', { monitors: [{ monitor: { id: 'secret', name: 'Secret' } }] });
    expect(incidentPageView(snapshot({ incidents: [other] }), page(), 'i9', options)).toBeNull();
    expect(incidentPageView(snapshot(), page(), 'nope', options)).toBeNull();
  });
});

describe('historyView', () => {
  const incidents = [
    incident('sep', { status: 'resolved', startedAt: '2026-09-10T10:00:00Z', resolvedAt: '2026-09-10T11:00:00Z' }),
    incident('nov', { status: 'resolved', startedAt: '2026-11-02T10:00:00Z', resolvedAt: '2026-11-02T11:00:00Z' }),
  ];

  it('shows the current month by default, linking to the nearest older month with incidents', () => {
    const view = historyView(snapshot({ incidents }), page(), null, options)!;
    expect(view.month).toEqual({ key: '2026-11', label: 'November 2026' });
    expect(view.incidents.map((item) => item.id)).toEqual(['nov']);
    expect(view.older).toEqual({ key: '2026-09', label: 'September 2026', href: '/acme/history/2026-09/' });
    expect(view.newer).toBeNull();
  });

  it('pages to an older month and refuses malformed months', () => {
    const september = historyView(snapshot({ incidents }), page(), '2026-09', options)!;
    expect(september.incidents.map((item) => item.id)).toEqual(['sep']);
    expect(september.newer?.key).toBe('2026-11');
    expect(historyView(snapshot({ incidents }), page(), '2026-13', options)).toBeNull();
    expect(historyView(snapshot({ incidents }), page(), '../x', options)).toBeNull();
  });
});

describe('indexView', () => {
  it('lists only public pages with their overall status', () => {
    const view = indexView(snapshot(), { now, stale: false, sitePath: '' });
    expect(view.organizationName).toBe('Acme Cloud');
    expect(view.pages).toEqual([{ name: 'Acme Status', href: '/acme/', overall: expect.objectContaining({ level: 'partial_outage' }) }]);
  });

  it('links the pages below the site path of an export', () => {
    expect(indexView(snapshot(), { now, stale: false, sitePath: '/status' }).pages[0]?.href).toBe('/status/acme/');
  });
});

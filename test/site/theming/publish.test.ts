import { describe, expect, it } from 'vitest';
import type { StatusPage, UpdateStatusPageInput } from '../../../src/contract/index.ts';
import { translator } from '../../../src/site/i18n/translator.ts';
import { brandingOf, brandingPatch, MemoryBrandingHistory, publishBranding, undoBranding, type StatusPageWriter } from '../../../src/site/theming/publish.ts';

const en = translator('en');
const NOW = new Date('2026-11-28T04:00:00.000Z');

function page(overrides: Partial<StatusPage> = {}): StatusPage {
  return { id: 'page_1', name: 'Acme', slug: 'acme', monitors: [], brandColor: '#0a2540', logoUrl: 'https://acme.test/logo.svg', headerText: '<p>Hi</p>', footerText: null, customCss: ':root{--pl-radius:0}', ...overrides };
}

/** An API that applies PATCH bodies like the embedded one: null clears, absent keeps. */
function fakeApi(initial: StatusPage): StatusPageWriter & { current: StatusPage; calls: UpdateStatusPageInput[]; failNext: boolean } {
  const api = {
    current: initial,
    calls: [] as UpdateStatusPageInput[],
    failNext: false,
    async update(id: string, input: UpdateStatusPageInput): Promise<StatusPage> {
      if (api.failNext) {
        api.failNext = false;
        throw new Error('API unreachable');
      }
      api.calls.push(input);
      expect(id).toBe(api.current.id);
      api.current = { ...api.current, ...(input as Partial<StatusPage>) };
      return api.current;
    },
  };
  return api;
}

describe('the PATCH a branding draft makes', () => {
  it('holds only the fields that change; empty and null clear; the brand colour clears to the API default', () => {
    const published = brandingOf(page());
    expect(brandingPatch(published, { brandColor: '#0A2540', customCss: ':root{--pl-radius:4px}' }, en)).toEqual({ ok: true, patch: { customCss: ':root{--pl-radius:4px}' }, changed: ['customCss'] });
    expect(brandingPatch(published, { headerText: '', logoUrl: null, brandColor: '' }, en)).toEqual({ ok: true, patch: { brandColor: '#000000', logoUrl: null, headerText: null }, changed: ['brandColor', 'logoUrl', 'headerText'] });
    expect(brandingPatch(published, {}, en)).toEqual({ ok: true, patch: {}, changed: [] });
  });

  it('sends a field whose published value the API did not return (unknown), since it cannot be compared', () => {
    const published = brandingOf({ brandColor: '#000000' } as StatusPage);
    expect(published).toEqual({ brandColor: '#000000' });
    expect(brandingPatch(published, { customCss: 'a{}' }, en)).toMatchObject({ ok: true, patch: { customCss: 'a{}' } });
  });

  it('applies the API contract: a hex colour, an http(s) logo, the length limits, with the field named in the catalog language', () => {
    const result = brandingPatch({}, { brandColor: 'red', logoUrl: 'javascript:alert(1)', customCss: 'x'.repeat(50_001) }, translator('de'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.field).sort()).toEqual(['brandColor', 'customCss', 'logoUrl']);
    expect(result.issues.find((issue) => issue.field === 'brandColor')?.message).toMatch(/^Markenfarbe: /);
  });
});

describe('publish, then undo', () => {
  it('publishes through the writer, keeps the replaced version, and undo writes it back', async () => {
    const api = fakeApi(page());
    const history = new MemoryBrandingHistory();
    const published = await publishBranding({ writer: api, history, page: api.current, draft: { customCss: '.x{color:red}', headerText: '<p>New</p>' }, by: 'editor@acme.test', now: NOW, i18n: en });
    expect(published).toMatchObject({ ok: true, changed: ['headerText', 'customCss'] });
    expect(api.current.customCss).toBe('.x{color:red}');
    expect(await history.peek('page_1')).toEqual({ pageId: 'page_1', branding: { headerText: '<p>Hi</p>', customCss: ':root{--pl-radius:0}' }, replacedAt: NOW.toISOString(), replacedBy: 'editor@acme.test' });

    const undone = await undoBranding({ writer: api, history, pageId: 'page_1', i18n: en });
    expect(undone).toMatchObject({ ok: true, restored: ['headerText', 'customCss'], unknown: [] });
    expect(api.calls[1]).toEqual({ headerText: '<p>Hi</p>', customCss: ':root{--pl-radius:0}' });
    expect(api.current).toMatchObject({ headerText: '<p>Hi</p>', customCss: ':root{--pl-radius:0}', brandColor: '#0a2540' });
    expect(await undoBranding({ writer: api, history, pageId: 'page_1', i18n: en })).toEqual({ ok: false, reason: 'nothing-to-undo', message: 'Nothing to undo: no earlier version is kept.' });
  });

  it('undo restores a field that was not set as cleared (null)', async () => {
    const api = fakeApi(page({ footerText: null }));
    const history = new MemoryBrandingHistory();
    await publishBranding({ writer: api, history, page: api.current, draft: { footerText: '<p>Footer</p>' }, by: null, now: NOW, i18n: en });
    await undoBranding({ writer: api, history, pageId: 'page_1', i18n: en });
    expect(api.calls).toEqual([{ footerText: '<p>Footer</p>' }, { footerText: null }]);
  });

  it('steps back one version per undo, newest first', async () => {
    const api = fakeApi(page());
    const history = new MemoryBrandingHistory();
    for (const color of ['#111111', '#222222']) await publishBranding({ writer: api, history, page: api.current, draft: { brandColor: color }, by: null, now: NOW, i18n: en });
    await undoBranding({ writer: api, history, pageId: 'page_1', i18n: en });
    expect(api.current.brandColor).toBe('#111111');
    await undoBranding({ writer: api, history, pageId: 'page_1', i18n: en });
    expect(api.current.brandColor).toBe('#0a2540');
  });

  it('publishes nothing (and keeps no version) when the draft changes nothing or is invalid', async () => {
    const api = fakeApi(page());
    const history = new MemoryBrandingHistory();
    expect(await publishBranding({ writer: api, history, page: api.current, draft: { brandColor: '#0a2540' }, by: null, now: NOW, i18n: en })).toEqual({ ok: false, reason: 'nothing-to-publish', message: 'Nothing to publish: the draft is the same as the page.' });
    expect(await publishBranding({ writer: api, history, page: api.current, draft: { brandColor: 'blue' }, by: null, now: NOW, i18n: en })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(api.calls).toEqual([]);
    expect(await history.peek('page_1')).toBeNull();
  });

  it('a refused write leaves no undo step; a failed undo keeps its version for another try', async () => {
    const api = fakeApi(page());
    const history = new MemoryBrandingHistory();
    api.failNext = true;
    await expect(publishBranding({ writer: api, history, page: api.current, draft: { customCss: 'a{}' }, by: null, now: NOW, i18n: en })).rejects.toThrow('API unreachable');
    expect(await history.peek('page_1')).toBeNull();
    await publishBranding({ writer: api, history, page: api.current, draft: { customCss: 'a{}' }, by: null, now: NOW, i18n: en });
    api.failNext = true;
    await expect(undoBranding({ writer: api, history, pageId: 'page_1', i18n: en })).rejects.toThrow('API unreachable');
    expect(await history.peek('page_1')).not.toBeNull();
    await undoBranding({ writer: api, history, pageId: 'page_1', i18n: en });
    expect(api.current.customCss).toBe(':root{--pl-radius:0}');
  });

  it('a field the API never returned cannot be restored and is said so', async () => {
    const api = fakeApi(page());
    const history = new MemoryBrandingHistory();
    const unread = { ...api.current } as Partial<StatusPage>;
    delete unread.customCss;
    await publishBranding({ writer: api, history, page: unread as StatusPage, draft: { customCss: 'a{}' }, by: null, now: NOW, i18n: en });
    const undone = await undoBranding({ writer: api, history, pageId: 'page_1', i18n: en });
    expect(undone).toMatchObject({ ok: true, page: null, restored: [], unknown: ['customCss'] });
    expect(api.calls).toEqual([{ customCss: 'a{}' }]);
  });

  it('keeps a bounded number of versions per page', async () => {
    const history = new MemoryBrandingHistory(2);
    for (const n of [1, 2, 3]) await history.push({ pageId: 'p', branding: { customCss: String(n) }, replacedAt: NOW.toISOString(), replacedBy: null });
    expect((await history.pop('p'))?.branding.customCss).toBe('3');
    expect((await history.pop('p'))?.branding.customCss).toBe('2');
    expect(await history.pop('p')).toBeNull();
  });
});

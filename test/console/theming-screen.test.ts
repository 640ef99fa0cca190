/**
 * The theming screen's decisions without a browser: a fake status pages resource records every
 * PATCH, the console store is real (SQLite in memory). The Playwright spec
 * (test/e2e/console-theming.spec.ts) runs the same screen against the real site and API.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusPage, UpdateStatusPageInput } from '../../src/contract/index.ts';
import { ConsoleStore, type Operator } from '../../src/console/store.ts';
import { createThemingScreen, THEMING_PREVIEW_PATH, type ThemingAnswer, type ThemingRequest } from '../../src/console/theming-screen.ts';
import { translator } from '../../src/site/i18n/translator.ts';

const T0 = Date.UTC(2026, 10, 28, 10);
let store: ConsoleStore;
let operator: Operator;
let page: StatusPage;
let patches: UpdateStatusPageInput[];

const client = {
  organization: { get: async () => ({ id: 'o1', name: 'Acme', slug: 'acme', logo: null }) },
  monitors: {
    async *listAll() {
      yield { id: 'm1', name: 'API', type: 'http', active: true, currentStatus: 'down', lastLatency: 1 };
    },
  },
  incidents: {
    async *listAll() {
      yield { id: 'i1', title: 'API down', status: 'investigating', severity: 'major', startedAt: new Date(T0 - 60_000).toISOString(), resolvedAt: null, updates: [{ id: 'u1', status: 'investigating', message: 'Looking.', createdAt: new Date(T0 - 60_000).toISOString() }], monitors: [{ monitor: { id: 'm1', name: 'API' } }] };
    },
  },
  statusPages: {
    async *listAll() {
      yield page;
    },
    async update(id: string, input: UpdateStatusPageInput) {
      expect(id).toBe(page.id);
      patches.push(input);
      page = { ...page, ...input } as StatusPage;
      return page;
    },
  },
} as unknown as Parameters<typeof createThemingScreen>[0]['client'];

beforeEach(async () => {
  store = await ConsoleStore.open({ dialect: 'sqlite', path: ':memory:' });
  operator = (await store.addOperator('eve@example.com', 'editor', T0)).operator;
  patches = [];
  page = { id: 'page_1', name: 'Acme', slug: 'acme', brandColor: '#0b57d0', logoUrl: null, headerText: null, footerText: 'Old footer', customCss: null, isPublic: true, customDomain: null, monitors: [{ monitorId: 'm1', sortOrder: 0 }] } as unknown as StatusPage;
});
afterEach(async () => {
  await store.close();
});

function screen() {
  // A clock that moves, so that the audit trail's order (by time) is the order of the actions.
  let clock = T0;
  return createThemingScreen({ client, store, previewOrigin: null, mail: { publicUrl: null, siteLocale: 'en', siteTimeZone: 'UTC' }, now: () => (clock += 1000), log: () => undefined });
}

function ask(method: 'GET' | 'POST', path: string, params: Record<string, string>): ThemingRequest {
  const values = new URLSearchParams(params);
  return { method, path, query: method === 'GET' ? values : new URLSearchParams(), form: method === 'POST' ? values : new URLSearchParams(), ctx: { i18n: translator('en', 'UTC'), operator, csrf: 'token' }, actor: `operator:${operator.id} eve@example.com`, origin: 'http://127.0.0.1:4321' };
}

const FORM = { page: 'page_1', brandColor: '#0b57d0', logoUrl: '', headerText: '', footerText: 'Old footer', customCss: '' };
const body = (answer: ThemingAnswer) => ('body' in answer ? answer.body : '');

describe('the theming screen', () => {
  it('keeps a previewed draft server-side and shows it, framing its own preview route only', async () => {
    const theming = screen();
    expect(await theming.handle(ask('POST', 'theming', { ...FORM, customCss: 'a{color:red}</style>', intent: 'preview', template: 'incident', scheme: 'dark' }))).toEqual({ kind: 'redirect', path: 'theming?page=page_1&template=incident&scheme=dark&direction=ltr&width=1280' });
    expect(patches).toEqual([]);
    const shown = await theming.handle(ask('GET', 'theming', { page: 'page_1', template: 'incident', scheme: 'dark' }));
    expect(shown).toMatchObject({ kind: 'page', status: 200, frames: THEMING_PREVIEW_PATH });
    expect(body(shown)).toContain('a{color:red}&lt;/style&gt;</textarea>');
    expect(body(shown)).toContain(`src="${THEMING_PREVIEW_PATH}?page=page_1&amp;template=incident&amp;scheme=dark`);
    expect(body(shown)).toContain('sandbox=""');
    expect(body(shown)).toContain('A closing tag such as &lt;/style&gt; is escaped');
    // Without the site's preview origin the frame says so, under a policy that lets nothing run.
    const frame = await theming.handle(ask('GET', 'theming/preview', { page: 'page_1' }));
    expect(frame).toMatchObject({ kind: 'frame', status: 503 });
    expect(frame.kind === 'frame' && frame.contentSecurityPolicy).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox");
  });

  it('publishes only the changed fields, keeps the replaced version for undo, and records both in the audit trail', async () => {
    const theming = screen();
    await theming.handle(ask('POST', 'theming', { ...FORM, customCss: 'a{}', intent: 'preview' }));
    const published = await theming.handle(ask('POST', 'theming', { ...FORM, customCss: '.x{color:red}', footerText: '', intent: 'publish' }));
    expect(published).toEqual({ kind: 'redirect', path: 'theming?page=page_1&template=status&scheme=light&direction=ltr&width=1280&done=published' });
    expect(patches).toEqual([{ footerText: null, customCss: '.x{color:red}' }]);
    expect(await store.theming().drafts.get(operator.id, 'page_1')).toBeNull();
    const [entry] = await store.audit(1);
    expect(entry).toMatchObject({ action: 'page.branding.publish', target: 'page_1', before: { footerText: 'Old footer', customCss: null }, after: { footerText: null, customCss: '.x{color:red}' } });

    // The undo form carries what was being previewed, and the screen comes back to it.
    expect(body(await theming.handle(ask('GET', 'theming', { page: 'page_1', template: 'widget' })))).toContain('<input type="hidden" name="template" value="widget">');
    const undone = await theming.handle(ask('POST', 'theming/undo', { page: 'page_1', template: 'widget' }));
    expect(undone).toEqual({ kind: 'redirect', path: 'theming?page=page_1&template=widget&scheme=light&direction=ltr&width=1280&done=undone' });
    expect(patches[1]).toEqual({ footerText: 'Old footer', customCss: null });
    expect((await store.audit(1))[0]).toMatchObject({ action: 'page.branding.undo', before: { footerText: null, customCss: '.x{color:red}' }, after: { footerText: 'Old footer', customCss: null } });
    const nothing = await theming.handle(ask('POST', 'theming/undo', { page: 'page_1' }));
    expect(nothing).toMatchObject({ kind: 'page', status: 409 });
    expect(body(nothing)).toContain('Nothing to undo');
    expect(patches).toHaveLength(2);
  });

  it('refuses a draft the API would refuse, writing nothing and keeping it as the draft', async () => {
    const theming = screen();
    const answer = await theming.handle(ask('POST', 'theming', { ...FORM, logoUrl: 'javascript:alert(1)', intent: 'publish' }));
    expect(answer).toMatchObject({ kind: 'page', status: 400 });
    expect(body(answer)).toContain('aria-invalid="true"');
    expect(patches).toEqual([]);
    expect(await store.theming().history.peek('page_1')).toBeNull();
    expect((await store.theming().drafts.get(operator.id, 'page_1'))?.logoUrl).toBe('javascript:alert(1)');
    const same = await theming.handle(ask('POST', 'theming', { ...FORM, intent: 'publish' }));
    expect(body(same)).toContain('Nothing to publish');
    expect(patches).toEqual([]);
  });
  it('publishes the brand colour screen\'s change through the same history, so Undo restores the colour it replaced', async () => {
    const theming = screen();
    const en = translator('en', 'UTC');
    const by = `operator:${operator.id} eve@example.com`;
    expect(await theming.publishBrandColor(page, '#123456', by, en)).toEqual({ ok: true });
    expect(patches).toEqual([{ brandColor: '#123456' }]);
    expect(await store.theming().history.peek('page_1')).toMatchObject({ branding: { brandColor: '#0b57d0' }, replacedBy: by });
    expect((await store.audit(1))[0]).toMatchObject({ actor: by, action: 'page.branding.publish', target: 'page_1', before: { brandColor: '#0b57d0' }, after: { brandColor: '#123456' } });
    // The same colour again writes nothing and keeps no version.
    expect(await theming.publishBrandColor(page, '#123456', by, en)).toEqual({ ok: true });
    expect(patches).toHaveLength(1);
    expect(await theming.handle(ask('POST', 'theming/undo', { page: 'page_1' }))).toMatchObject({ kind: 'redirect' });
    expect(patches[1]).toEqual({ brandColor: '#0b57d0' });
    expect(page.brandColor).toBe('#0b57d0');
    expect((await store.audit(1))[0]).toMatchObject({ action: 'page.branding.undo', before: { brandColor: '#123456' }, after: { brandColor: '#0b57d0' } });
    // A colour the API contract refuses writes nothing and says why.
    const refused = await theming.publishBrandColor(page, 'red', by, en);
    expect(refused.ok).toBe(false);
    expect(patches).toHaveLength(2);
    expect(await store.theming().history.peek('page_1')).toBeNull();
  });
  it('previews the subscribers\' e-mail with the draft branding in the frame, on this thread, under the preview\'s policy', async () => {
    const theming = screen();
    await theming.handle(ask('POST', 'theming', { ...FORM, brandColor: '#a1b2c3', intent: 'preview', template: 'email' }));
    const shown = await theming.handle(ask('GET', 'theming', { page: 'page_1', template: 'email' }));
    expect(body(shown)).toContain('<option value="email" selected>E-mail to subscribers</option>');
    expect(body(shown)).toContain(`src="${THEMING_PREVIEW_PATH}?page=page_1&amp;template=email`);
    const frame = await theming.handle(ask('GET', 'theming/preview', { page: 'page_1', template: 'email' }));
    expect(frame).toMatchObject({ kind: 'frame', status: 200 });
    if (frame.kind !== 'frame') throw new Error('no frame');
    expect(frame.body).toContain('API down');
    expect(frame.body).toContain('#a1b2c3');
    expect(frame.body).toContain('http://127.0.0.1:4321/acme/subscribe/manage?t=preview');
    expect(frame.contentSecurityPolicy).toMatch(/script-src 'none'.*sandbox/);
    expect(patches).toEqual([]);
  });
});

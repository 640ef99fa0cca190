import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleEnvelope } from '../../src/contract/common.ts';
import { pageMonitorSchema, statusPageSchema } from '../../src/contract/status-page.ts';
import { dataOf, expectError, httpMonitor, idOf, ISO_UTC_MS, listOf, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

describe.each(DIALECTS)('status pages on %s', (dialect) => {
  let t: TestService;
  let web: string;
  let api: string;
  let foreign: string;
  beforeAll(async () => {
    t = await startTestService(on(dialect));
    web = idOf(await t.a.post('/monitors', httpMonitor({ name: 'Web' })));
    api = idOf(await t.a.post('/monitors', httpMonitor({ name: 'API' })));
    foreign = idOf(await t.b.post('/monitors', httpMonitor({ name: 'Theirs' })));
  });
  afterAll(() => t.close());

  it('creates a minimal page with defaults and every field present', async () => {
    const response = await t.a.post('/status-pages', { name: 'Status', slug: 'status' });
    expect(response.status).toBe(201);
    const page = singleEnvelope(statusPageSchema).parse(response.json).data;
    expect(page).toEqual({
      id: expect.any(String),
      name: 'Status',
      slug: 'status',
      isPublic: true,
      customDomain: null,
      brandColor: '#000000',
      logoUrl: null,
      headerText: null,
      footerText: null,
      customCss: null,
      showResponseTimes: true,
      monitors: [],
      createdAt: expect.stringMatching(ISO_UTC_MS),
      updatedAt: expect.stringMatching(ISO_UTC_MS),
    });
  });

  it('creates a full page with linked monitors ordered by sortOrder', async () => {
    const response = await t.a.post('/status-pages', {
      name: 'Acme',
      slug: 'acme',
      isPublic: false,
      customDomain: 'Status.Acme.Example',
      brandColor: '#1a7f37',
      logoUrl: 'https://acme.example/logo.svg',
      headerText: '<strong>Hi</strong>',
      footerText: '<a href="https://acme.example">Acme</a>',
      customCss: 'body { color: red; }',
      showResponseTimes: false,
      monitors: [
        { monitorId: web, displayName: 'Website', sortOrder: 5 },
        { monitorId: api },
      ],
    });
    expect(response.status).toBe(201);
    const page = dataOf(response);
    expect(page).toMatchObject({
      isPublic: false,
      customDomain: 'status.acme.example',
      brandColor: '#1a7f37',
      logoUrl: 'https://acme.example/logo.svg',
      headerText: '<strong>Hi</strong>',
      footerText: '<a href="https://acme.example">Acme</a>',
      customCss: 'body { color: red; }',
      showResponseTimes: false,
    });
    const links = (page.monitors as unknown[]).map((link) => pageMonitorSchema.parse(link));
    // The second link defaults to sortOrder 1 (its position) and the monitor's own name.
    expect(links).toEqual([
      { id: expect.any(String), monitorId: api, displayName: 'API', sortOrder: 1, monitor: { id: api, name: 'API' } },
      { id: expect.any(String), monitorId: web, displayName: 'Website', sortOrder: 5, monitor: { id: web, name: 'Web' } },
    ]);
    expect(dataOf(await t.a.get(`/status-pages/${String(page.id)}`))).toEqual(page);
  });

  it('lists pages with their linked monitors, paginated', async () => {
    const list = listOf(await t.a.get('/status-pages?limit=1&offset=1'));
    expect(list.pagination).toEqual({ total: 2, limit: 1, offset: 1, hasMore: false });
    expect(list.items[0]).toMatchObject({ slug: 'acme' });
    expect(list.items[0]?.monitors).toHaveLength(2);
    expect(expectError(await t.a.get('/status-pages?limit=500'), 400, 'validation_error')).toEqual(['limit']);
  });

  it('rejects invalid pages with 400', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ slug: 'x' }, ['name']],
      [{ name: 'x', slug: 'Not A Slug' }, ['slug']],
      [{ name: 'x', slug: 'x', brandColor: 'red' }, ['brandColor']],
      [{ name: 'x', slug: 'x', logoUrl: 'javascript:alert(1)' }, ['logoUrl']],
      [{ name: 'x', slug: 'x', customDomain: 'https://x.example/' }, ['customDomain']],
      [{ name: 'x', slug: 'x', monitors: [{ displayName: 'y' }] }, ['monitors.0.monitorId']],
    ];
    for (const [body, paths] of cases) {
      expect(expectError(await t.a.post('/status-pages', body), 400, 'validation_error'), JSON.stringify(body)).toEqual(paths);
    }
  });

  it('rejects links to unknown or foreign monitors, naming them, and stores nothing', async () => {
    const response = await t.a.post('/status-pages', { name: 'x', slug: 'with-foreign', monitors: [{ monitorId: web }, { monitorId: foreign }, { monitorId: 'nope' }] });
    expect(expectError(response, 400, 'validation_error')).toEqual(['monitors.1.monitorId', 'monitors.2.monitorId']);
    expect(response.text).toContain(foreign);
    expect(expectError(await t.a.post('/status-pages', { name: 'x', slug: 'dup-link', monitors: [{ monitorId: web }, { monitorId: web }] }), 400, 'validation_error')).toEqual(['monitors.1.monitorId']);
    expect(listOf(await t.a.get('/status-pages')).pagination.total).toBe(2);
  });

  it('answers 409 for a taken slug or custom domain, across organizations too', async () => {
    expect(expectError(await t.a.post('/status-pages', { name: 'again', slug: 'acme' }), 409, 'conflict')).toEqual(['slug']);
    expectError(await t.b.post('/status-pages', { name: 'theirs', slug: 'acme' }), 409, 'conflict');
    expect(expectError(await t.b.post('/status-pages', { name: 'theirs', slug: 'theirs', customDomain: 'status.acme.example' }), 409, 'conflict')).toEqual(['customDomain']);
    expect(listOf(await t.b.get('/status-pages')).pagination.total).toBe(0);
  });

  it('updates fields, replaces links and clears optional fields with null', async () => {
    const id = idOf(await t.a.post('/status-pages', { name: 'Edit me', slug: 'edit-me', customDomain: 'edit.example.com', monitors: [{ monitorId: web }] }));
    const response = await t.a.patch(`/status-pages/${id}`, { name: 'Edited', customDomain: null, headerText: 'Hello', monitors: [{ monitorId: api, displayName: 'Public API' }] });
    expect(response.status).toBe(200);
    const page = dataOf(response);
    expect(page).toMatchObject({ name: 'Edited', slug: 'edit-me', customDomain: null, headerText: 'Hello' });
    expect(page.monitors).toEqual([{ id: expect.any(String), monitorId: api, displayName: 'Public API', sortOrder: 0, monitor: { id: api, name: 'API' } }]);
    // Keeping its own slug is no conflict; another page's slug is.
    expect((await t.a.patch(`/status-pages/${id}`, { slug: 'edit-me' })).status).toBe(200);
    expectError(await t.a.patch(`/status-pages/${id}`, { slug: 'acme' }), 409, 'conflict');
    // Omitting monitors keeps the links; an empty list removes them.
    expect(dataOf(await t.a.patch(`/status-pages/${id}`, { isPublic: false })).monitors).toHaveLength(1);
    expect(dataOf(await t.a.patch(`/status-pages/${id}`, { monitors: [] })).monitors).toEqual([]);
  });

  it('rejects an invalid update atomically', async () => {
    const id = idOf(await t.a.post('/status-pages', { name: 'Atomic', slug: 'atomic', monitors: [{ monitorId: web }] }));
    const before = dataOf(await t.a.get(`/status-pages/${id}`));
    expectError(await t.a.patch(`/status-pages/${id}`, { brandColor: '#12' }), 400, 'validation_error');
    expectError(await t.a.patch(`/status-pages/${id}`, { name: 'New', monitors: [{ monitorId: foreign }] }), 400, 'validation_error');
    // The links would be valid, the slug is taken: neither change may land.
    expectError(await t.a.patch(`/status-pages/${id}`, { slug: 'acme', monitors: [{ monitorId: api }] }), 409, 'conflict');
    expect(dataOf(await t.a.get(`/status-pages/${id}`))).toEqual(before);
  });

  it('deletes a page with its links and subscribers', async () => {
    const id = idOf(await t.a.post('/status-pages', { name: 'Gone', slug: 'gone', monitors: [{ monitorId: web }, { monitorId: api }] }));
    await t.service.store.statusPages.addSubscriber(id, 'reader@example.com', new Date());
    const count = async (table: string) =>
      Number((await t.service.store.db.get(`SELECT COUNT(*) AS n FROM ${table} WHERE page_id = ?`, id))?.n);
    expect(await count('status_page_monitors')).toBe(2);
    expect(await count('status_page_subscribers')).toBe(1);
    const response = await t.a.delete(`/status-pages/${id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await count('status_page_monitors')).toBe(0);
    expect(await count('status_page_subscribers')).toBe(0);
    expectError(await t.a.get(`/status-pages/${id}`), 404, 'not_found');
    // The monitors themselves stay.
    expect((await t.a.get(`/monitors/${web}`)).status).toBe(200);
    // The slug is free again.
    expect((await t.a.post('/status-pages', { name: 'Back', slug: 'gone' })).status).toBe(201);
  });
});

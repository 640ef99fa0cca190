import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleEnvelope } from '../../src/contract/common.ts';
import { checkSchema, monitorSchema } from '../../src/contract/monitor.ts';
import { dataOf, expectError, httpMonitor, idOf, ISO_UTC_MS, listOf, startTarget, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

describe.each(DIALECTS)('monitors on %s', (dialect) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService(on(dialect));
  });
  afterAll(() => t.close());

  it('creates an http monitor, answering 201 with the spec subset, and fills defaults', async () => {
    const response = await t.a.post('/monitors', httpMonitor({ name: 'Site' }));
    expect(response.status).toBe(201);
    const subset = dataOf(response);
    expect(Object.keys(subset).sort()).toEqual(['active', 'id', 'interval', 'name', 'regions', 'type', 'url']);
    expect(subset).toMatchObject({ name: 'Site', type: 'http', active: true, interval: 60, url: 'https://example.com/health', regions: ['eu'] });

    const full = singleEnvelope(monitorSchema).parse((await t.a.get(`/monitors/${String(subset.id)}`)).json).data;
    expect(full).toEqual({
      id: subset.id,
      name: 'Site',
      type: 'http',
      active: true,
      interval: 60,
      timeout: 10,
      url: 'https://example.com/health',
      host: null,
      port: null,
      method: 'GET',
      headers: {},
      body: null,
      regions: ['eu'],
      autoIncidents: false,
      rules: [],
      currentStatus: 'pending',
      lastStatus: null,
      lastLatency: null,
      lastCheckedAt: null,
      createdAt: expect.stringMatching(ISO_UTC_MS),
      updatedAt: expect.stringMatching(ISO_UTC_MS),
    });
  });

  it('stores every create field', async () => {
    const rules = [
      { type: 'status_code', operator: 'eq', value: 200 },
      { type: 'response_time', operator: 'lt', value: 800 },
      { type: 'body', operator: 'contains', value: 'ok' },
      { type: 'header', name: 'content-type', operator: 'contains', value: 'json' },
    ];
    const id = idOf(
      await t.a.post('/monitors', {
        name: 'API',
        type: 'http',
        url: 'https://api.example.com/health',
        interval: 30,
        timeout: 5,
        method: 'POST',
        headers: { 'X-Probe': '1' },
        body: '{"ping":true}',
        regions: ['us', 'asia'],
        autoIncidents: true,
        rules,
      }),
    );
    const monitor = dataOf(await t.a.get(`/monitors/${id}`));
    expect(monitor).toMatchObject({ interval: 30, timeout: 5, method: 'POST', headers: { 'X-Probe': '1' }, body: '{"ping":true}', regions: ['us', 'asia'], autoIncidents: true, rules });
  });

  it('creates tcp and ping monitors with their targets', async () => {
    const tcp = dataOf(await t.a.get(`/monitors/${idOf(await t.a.post('/monitors', { name: 'DB', type: 'tcp', host: 'db.example.com', port: 5432 }))}`));
    expect(tcp).toMatchObject({ type: 'tcp', host: 'db.example.com', port: 5432, url: null });
    const ping = dataOf(await t.a.get(`/monitors/${idOf(await t.a.post('/monitors', { name: 'Edge', type: 'ping', host: 'edge.example.com' }))}`));
    expect(ping).toMatchObject({ type: 'ping', host: 'edge.example.com', port: null });
  });

  it('rejects invalid monitors with 400 naming each field', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ type: 'http', name: 'x' }, ['url']],
      [{ type: 'tcp', name: 'x', host: 'h.example.com' }, ['port']],
      [{ type: 'ping', name: 'x' }, ['host']],
      [{ type: 'smtp', name: 'x' }, ['type']],
      [{ type: 'http', url: 'https://x.example.com' }, ['name']],
      [httpMonitor({ interval: 5 }), ['interval']],
      [httpMonitor({ url: 'ftp://x.example.com' }), ['url']],
      [httpMonitor({ regions: ['mars'] }), ['regions.0']],
      [httpMonitor({ regions: [] }), ['regions']],
      [httpMonitor({ rules: [{ type: 'status_code', operator: 'eq', value: 999 }] }), ['rules.0.value']],
      [httpMonitor({ rules: [{ type: 'latency' }] }), ['rules.0.type']],
      [httpMonitor({ headers: { a: 1 } }), ['headers.a']],
      [httpMonitor({ method: 'FETCH' }), ['method']],
    ];
    for (const [body, paths] of cases) {
      expect(expectError(await t.a.post('/monitors', body), 400, 'validation_error'), JSON.stringify(body)).toEqual(paths);
    }
  });

  it('updates only the given fields and returns the full monitor', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor({ name: 'Before' })));
    const response = await t.a.patch(`/monitors/${id}`, { name: 'After', interval: 120, headers: { A: 'b' } });
    expect(response.status).toBe(200);
    const monitor = singleEnvelope(monitorSchema).parse(response.json).data;
    expect(monitor).toMatchObject({ id, name: 'After', interval: 120, headers: { A: 'b' }, url: 'https://example.com/health', timeout: 10 });
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toEqual(monitor);
  });

  it('pauses and resumes a monitor through active', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor()));
    expect(dataOf(await t.a.patch(`/monitors/${id}`, { active: false }))).toMatchObject({ active: false, currentStatus: 'paused' });
    expect(dataOf(await t.a.patch(`/monitors/${id}`, { active: true }))).toMatchObject({ active: true, currentStatus: 'pending' });
  });

  it('rejects invalid updates and leaves the monitor unchanged', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor()));
    const before = dataOf(await t.a.get(`/monitors/${id}`));
    expect(expectError(await t.a.patch(`/monitors/${id}`, { interval: 9 }), 400, 'validation_error')).toEqual(['interval']);
    expect(expectError(await t.a.patch(`/monitors/${id}`, { type: 'tcp' }), 400, 'validation_error')).toEqual(['type']);
    expect(expectError(await t.a.patch(`/monitors/${id}`, { url: null }), 400, 'validation_error')).toEqual(['url']);
    expect(expectError(await t.a.patch(`/monitors/${id}`, { active: 'no' }), 400, 'validation_error')).toEqual(['active']);
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toEqual(before);
  });

  it('deletes with 204 and no body, then 404', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor()));
    const response = await t.a.delete(`/monitors/${id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expectError(await t.a.get(`/monitors/${id}`), 404, 'not_found');
    expectError(await t.a.delete(`/monitors/${id}`), 404, 'not_found');
    expectError(await t.a.patch(`/monitors/${id}`, { name: 'x' }), 404, 'not_found');
  });
});

describe.each(DIALECTS)('monitor list pagination and the per-organization limit on %s', (dialect) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService(on(dialect));
  });
  afterAll(() => t.close());

  it('pages with limit/offset and reports total and hasMore', async () => {
    for (let i = 0; i < 25; i++) expect((await t.a.post('/monitors', httpMonitor({ name: `m${i}` }))).status).toBe(201);
    const first = listOf(await t.a.get('/monitors'));
    expect(first.pagination).toEqual({ total: 25, limit: 20, offset: 0, hasMore: true });
    expect(first.items.map((item) => item.name)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
    first.items.forEach((item) => monitorSchema.parse(item));
    const last = listOf(await t.a.get('/monitors?limit=10&offset=20'));
    expect(last.pagination).toEqual({ total: 25, limit: 10, offset: 20, hasMore: false });
    expect(last.items.map((item) => item.name)).toEqual(['m20', 'm21', 'm22', 'm23', 'm24']);
    expect(listOf(await t.a.get('/monitors?limit=100&offset=30')).items).toEqual([]);
    // Another organization sees none of them.
    expect(listOf(await t.b.get('/monitors')).pagination.total).toBe(0);
  });

  it('rejects out-of-range paging with 400', async () => {
    for (const [query, path] of [['limit=101', 'limit'], ['limit=0', 'limit'], ['offset=-1', 'offset'], ['limit=abc', 'limit'], ['limit=1.5', 'limit']]) {
      expect(expectError(await t.a.get(`/monitors?${query}`), 400, 'validation_error')).toEqual([path]);
    }
  });

  it('refuses the 51st monitor with 403 and keeps 50', async () => {
    for (let i = 25; i < 50; i++) expect((await t.a.post('/monitors', httpMonitor({ name: `m${i}` }))).status).toBe(201);
    expectError(await t.a.post('/monitors', httpMonitor({ name: 'one too many' })), 403, 'limit_reached');
    const list = listOf(await t.a.get('/monitors?limit=100'));
    expect(list.pagination.total).toBe(50);
    expect(list.items.some((item) => item.name === 'one too many')).toBe(false);
    // The limit is per organization.
    expect((await t.b.post('/monitors', httpMonitor())).status).toBe(201);
  });
});

describe.each(DIALECTS)('checks on %s', (dialect) => {
  let t: TestService;
  let target: Awaited<ReturnType<typeof startTarget>>;
  beforeAll(async () => {
    // The target listens on 127.0.0.1.
    t = await startTestService({ ...on(dialect), allowPrivateTargets: true });
    target = await startTarget();
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('lists a monitor\'s checks newest first, 50 by default, at most 200', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor()));
    const start = Date.parse('2030-01-01T00:00:00.000Z');
    await t.service.store.transaction(async (tx) => {
      for (let i = 0; i < 230; i++) {
        await tx.checks.insert({ monitorId: id, status: i % 10 === 0 ? 'down' : 'up', latency: 100 + i, statusCode: 200, region: 'eu', checkedAt: new Date(start + i * 60_000).toISOString(), error: null });
      }
    });
    const first = listOf(await t.a.get(`/monitors/${id}/checks`));
    expect(first.pagination).toEqual({ total: 230, limit: 50, offset: 0, hasMore: true });
    expect(first.items[0]).toMatchObject({ monitorId: id, latency: 329, checkedAt: new Date(start + 229 * 60_000).toISOString() });
    first.items.forEach((item) => checkSchema.parse(item));
    const times = first.items.map((item) => String(item.checkedAt));
    expect([...times].sort().reverse()).toEqual(times);
    const max = listOf(await t.a.get(`/monitors/${id}/checks?limit=200&offset=200`));
    expect(max.items).toHaveLength(30);
    expect(max.pagination.hasMore).toBe(false);
    expect(expectError(await t.a.get(`/monitors/${id}/checks?limit=201`), 400, 'validation_error')).toEqual(['limit']);
    expectError(await t.a.get('/monitors/nope/checks'), 404, 'not_found');
  });

  it('runs an on-demand check against a real target and records it', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor({ url: target.url, regions: ['us', 'eu'], timeout: 5 })));
    target.status = 200;
    const response = await t.a.post(`/monitors/${id}/run`);
    expect(response.status).toBe(201);
    const check = singleEnvelope(checkSchema).parse(response.json).data;
    expect(check).toMatchObject({ monitorId: id, status: 'up', statusCode: 200, region: 'us', error: null });
    expect(Number.isInteger(check.latency)).toBe(true);
    expect(check.checkedAt).toMatch(ISO_UTC_MS);
    expect(target.hits).toBe(1);
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toMatchObject({ currentStatus: 'up', lastStatus: 'up', lastLatency: check.latency, lastCheckedAt: check.checkedAt });

    target.status = 500;
    const blip = dataOf(await t.a.post(`/monitors/${id}/run`));
    expect(blip).toMatchObject({ status: 'down', statusCode: 500 });
    expect(typeof blip.error).toBe('string');
    // One failure is a blip: the monitor goes down only after two in a row (the default threshold).
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toMatchObject({ currentStatus: 'up', lastStatus: 'down' });
    const down = dataOf(await t.a.post(`/monitors/${id}/run`));
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toMatchObject({ currentStatus: 'down', lastStatus: 'down' });
    const history = listOf(await t.a.get(`/monitors/${id}/checks`));
    expect(history.items.map((item) => item.status)).toEqual(['down', 'down', 'up']);
    expect(history.items[0]).toEqual(down);
  });

  it('keeps a paused monitor paused when it is run', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor({ url: target.url })));
    await t.a.patch(`/monitors/${id}`, { active: false });
    target.status = 200;
    expect(dataOf(await t.a.post(`/monitors/${id}/run`))).toMatchObject({ status: 'up' });
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toMatchObject({ currentStatus: 'paused', lastStatus: 'up' });
  });

  it('ignores a body sent to run and 404s for unknown monitors', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor({ url: target.url })));
    target.status = 200;
    const response = await t.a.request('POST', `/monitors/${id}/run`, { rawBody: 'anything', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(201);
    expectError(await t.a.post('/monitors/nope/run'), 404, 'not_found');
  });

  it('routes a down event to subscribed, enabled channels only', async () => {
    await t.a.post('/notifications', { name: 'ops', type: 'slack', webhookUrl: 'https://hooks.example.com/x' });
    await t.a.post('/notifications', { name: 'muted', type: 'email', recipientEmail: 'a@example.com', enabled: false });
    await t.a.post('/notifications', { name: 'no-down', type: 'email', recipientEmail: 'b@example.com', onMonitorDown: false });
    const id = idOf(await t.a.post('/monitors', httpMonitor({ name: 'Alerting', url: target.url })));
    target.status = 503;
    t.logs.length = 0;
    await t.a.post(`/monitors/${id}/run`);
    expect(t.logs.some((entry) => entry.includes('onMonitorDown'))).toBe(false);
    await t.a.post(`/monitors/${id}/run`);
    const line = t.logs.find((entry) => entry.includes('onMonitorDown'));
    expect(line).toContain('slack:"ops"');
    expect(line).not.toContain('muted');
    expect(line).not.toContain('no-down');
    expect(line).not.toContain('hooks.example.com');
  });
});

/**
 * Replays a request of every operation against the real service over a socket; the helpers'
 * Client checks each exchange against the OpenAPI document (openapi-conformance.ts), and this
 * test then asserts that every documented operation was answered with a success at least once,
 * and that the documented errors (401, 404, 400, 409, 429) match the document too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, expectError, httpMonitor, idOf, startTarget, startTestService, type TestService } from './helpers.ts';
import { allOperations, checkExchange, exercised } from './openapi-conformance.ts';

let t: TestService;
let target: Awaited<ReturnType<typeof startTarget>>;

beforeAll(async () => {
  // The monitor checks a loopback target: allowed explicitly, as the egress policy holds test organizations to it.
  t = await startTestService({ rateLimits: { free: 5, pro: 100_000, windowSeconds: 60 }, allowPrivateTargets: true });
  target = await startTarget();
});
afterAll(async () => {
  await t.close();
  await target.close();
});

describe('OpenAPI replay', () => {
  it('every operation answers as the document says', async () => {
    const health = await fetch(`${t.service.url}/health`);
    checkExchange({ method: 'GET', url: health.url, requestBody: undefined, status: health.status, responseBody: await health.json() });
    const document = await fetch(`${t.service.url}/openapi.json`);
    expect(document.headers.get('content-type')).toMatch(/^application\/json/);
    checkExchange({ method: 'GET', url: document.url, requestBody: undefined, status: document.status, responseBody: await document.json() });

    const monitor = idOf(await t.a.post('/monitors', httpMonitor({ url: target.url, active: undefined })));
    await t.a.get('/monitors?limit=5&offset=0');
    await t.a.get(`/monitors/${monitor}`);
    await t.a.patch(`/monitors/${monitor}`, { interval: 120 });
    expect((await t.a.post(`/monitors/${monitor}/run`)).status).toBe(201);
    await t.a.get(`/monitors/${monitor}/checks?limit=200`);

    const page = idOf(await t.a.post('/status-pages', { name: 'Replay', slug: 'replay', monitors: [{ monitorId: monitor, displayName: 'Site' }] }));
    await t.a.get('/status-pages');
    await t.a.get(`/status-pages/${page}`);
    await t.a.patch(`/status-pages/${page}`, { headerText: 'Hello' });

    const incident = idOf(await t.a.post('/incidents', { monitorIds: [monitor], title: 'Down', message: 'Looking', severity: 'major' }));
    await t.a.get('/incidents');
    await t.a.get(`/incidents/${incident}`);
    await t.a.patch(`/incidents/${incident}`, { status: 'resolved', message: 'Fixed' });

    const window = (start: string) => ({ title: 'Upgrade', scheduledStart: start, scheduledEnd: '2031-01-01T02:00:00Z', monitorIds: [monitor] });
    const planned = idOf(await t.a.post('/maintenance', window('2031-01-01T00:00:00Z')));
    await t.a.get('/maintenance');
    await t.a.get(`/maintenance/${planned}`);
    await t.a.patch(`/maintenance/${planned}`, { description: 'Disks' });
    await t.a.post(`/maintenance/${planned}/start`);
    expect(dataOf(await t.a.post(`/maintenance/${planned}/complete`)).status).toBe('completed');
    const cancelled = idOf(await t.a.post('/maintenance', window('2031-01-01T00:00:00Z')));
    await t.a.post(`/maintenance/${cancelled}/cancel`);
    const removed = idOf(await t.a.post('/maintenance', window('2031-01-01T00:00:00Z')));
    await t.a.delete(`/maintenance/${removed}`);

    await t.a.get('/organization');

    const channel = idOf(await t.a.post('/notifications', { name: 'Ops', type: 'email', recipientEmail: 'ops@example.com' }));
    await t.a.get('/notifications');
    await t.a.get(`/notifications/${channel}`);
    await t.a.patch(`/notifications/${channel}`, { onMonitorDown: false });
    await t.a.delete(`/notifications/${channel}`);

    await t.a.delete(`/incidents/${incident}`);
    await t.a.delete(`/status-pages/${page}`);
    await t.a.delete(`/monitors/${monitor}`);

    const missing = allOperations().filter((operation) => !exercised.has(operation) && !operation.includes('/health') && !operation.includes('/openapi.json'));
    expect(missing).toEqual([]);
  });

  it('errors answer with the documented shape and statuses', async () => {
    expectError(await t.anonymous.get('/monitors'), 401, 'unauthorized');
    expectError(await t.a.get('/incidents/nope'), 404, 'not_found');
    expectError(await t.a.post('/incidents', { title: '' }), 400, 'validation_error');
    expectError(await t.a.get('/monitors?limit=1000'), 400, 'validation_error');
    const window = idOf(await t.a.post('/maintenance', { title: 'W', scheduledStart: '2031-01-01T00:00:00Z', scheduledEnd: '2031-01-01T01:00:00Z', monitorIds: [] }));
    expectError(await t.a.post(`/maintenance/${window}/complete`), 409, 'invalid_state');
    for (let index = 0; index < 5; index++) await t.b.get('/organization');
    expectError(await t.b.get('/organization'), 429, 'rate_limited');
  });

  it('a body that breaks the document is caught (the check can fail)', () => {
    expect(() => checkExchange({ method: 'GET', url: `${t.service.url}/organization`, requestBody: undefined, status: 200, responseBody: { data: { id: 1 } } })).toThrow(/response body/);
    expect(() => checkExchange({ method: 'DELETE', url: `${t.service.url}/organization`, requestBody: undefined, status: 204, responseBody: undefined })).toThrow(/does not describe/);
    expect(() => checkExchange({ method: 'GET', url: `${t.service.url}/monitors`, requestBody: undefined, status: 418, responseBody: undefined })).toThrow(/not documented/);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from '../../src/store/errors.ts';
import { organizationSchema } from '../../src/contract/organization.ts';
import { singleEnvelope } from '../../src/contract/common.ts';
import { Client, dataOf, expectError, httpMonitor, idOf, ISO_UTC_MS, startTestService, useServiceDialects, type TestService } from './helpers.ts';
import { DIALECTS } from '../support/postgres.ts';

const on = useServiceDialects();

describe.each(DIALECTS)('request pipeline on %s', (dialect) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ ...on(dialect), maxBodyBytes: 4096 });
  });
  afterAll(() => t.close());

  it('rejects a missing key with 401 and a Bearer challenge', async () => {
    const response = await t.anonymous.get('/monitors');
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(response.headers.get('ratelimit-limit')).toBeNull();
  });

  it('rejects an unknown key, a non-Bearer scheme and an empty token', async () => {
    for (const authorization of ['Bearer pl_nottherightkeyatallnottherightke', 'Basic dXNlcjpwYXNz', 'Bearer ', `Token ${t.orgA.apiKey}`]) {
      const response = await t.anonymous.get('/monitors', { headers: { authorization } });
      expectError(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    }
  });

  it('accepts the scheme case-insensitively', async () => {
    const response = await t.anonymous.get('/organization', { headers: { authorization: `bearer ${t.orgA.apiKey}` } });
    expect(response.status).toBe(200);
  });

  it('answers unknown routes with 404 not_found', async () => {
    expectError(await t.a.get('/nothing-here'), 404, 'not_found');
    expectError(await new Client(t.service.url.replace('/api/v1', ''), t.orgA.apiKey).get('/api/v2/monitors'), 404, 'not_found');
    expectError(await t.a.get('/monitors/x/y/z'), 404, 'not_found');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const put = await t.a.request('PUT', '/monitors', { body: {} });
    expectError(put, 405, 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('GET, POST');
    const del = await t.a.delete('/monitors');
    expectError(del, 405, 'method_not_allowed');
    const post = await t.a.post('/organization', {});
    expectError(post, 405, 'method_not_allowed');
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('tolerates a trailing slash', async () => {
    expect((await t.a.get('/monitors/')).status).toBe(200);
  });

  it('rejects a body without application/json with 415', async () => {
    const response = await t.a.request('POST', '/monitors', { rawBody: JSON.stringify(httpMonitor()), headers: { 'content-type': 'text/plain' } });
    expectError(response, 415, 'unsupported_media_type');
    expect((await t.a.get('/monitors')).json).toMatchObject({ pagination: { total: 0 } });
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await t.a.request('POST', '/notifications', {
      rawBody: JSON.stringify({ name: 'x', type: 'email', recipientEmail: 'a@b.example' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
  });

  it('rejects malformed JSON with 400 invalid_json', async () => {
    const response = await t.a.request('POST', '/monitors', { rawBody: '{"name": "x",', headers: { 'content-type': 'application/json' } });
    expectError(response, 400, 'invalid_json');
  });

  it('rejects a missing or non-object body with 400 validation_error', async () => {
    expect(expectError(await t.a.post('/monitors'), 400, 'validation_error')).toEqual(['body']);
    expect(expectError(await t.a.post('/monitors', [1, 2]), 400, 'validation_error')).toEqual(['body']);
  });

  it('rejects a body above the configured limit with 413', async () => {
    const response = await t.a.post('/monitors', httpMonitor({ body: 'x'.repeat(5000) }));
    expectError(response, 413, 'payload_too_large');
    expect((await t.a.get('/monitors')).json).toMatchObject({ pagination: { total: 0 } });
  });

  it('returns the organization of the key with its derived plan', async () => {
    const pro = singleEnvelope(organizationSchema).parse((await t.a.get('/organization')).json).data;
    expect(pro).toMatchObject({ id: t.orgA.organizationId, name: 'Org A', slug: 'org-a', logo: null, subscriptionActive: true, plan: 'pro', cancelAtPeriodEnd: false });
    expect(pro.createdAt).toMatch(ISO_UTC_MS);
    const free = dataOf(await t.b.get('/organization'));
    expect(free).toMatchObject({ id: t.orgB.organizationId, subscriptionActive: false, plan: 'free' });
  });

  it('answers with JSON, no-store and rate limit headers on success and on errors', async () => {
    for (const response of [await t.a.get('/monitors'), await t.a.get('/monitors/nope')]) {
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('ratelimit-limit')).toBe('600');
      expect(response.headers.get('ratelimit-policy')).toBe('600;w=60');
      expect(Number(response.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
  });

  it('hides internal failures behind a 500 without a stack and logs them', async () => {
    const id = idOf(await t.a.post('/monitors', httpMonitor()));
    (await t.service.store.db.run("UPDATE monitors SET headers_json = 'not json' WHERE id = ?", id));
    const response = await t.a.get(`/monitors/${id}`);
    expectError(response, 500, 'internal_error');
    expect(response.text).not.toContain('headers_json');
    expect(t.logs.some((line) => line.includes('internal error on GET') && line.includes('headers_json'))).toBe(true);
    expect(t.logs.join('\n')).not.toContain(t.orgA.apiKey);
    (await t.service.store.db.run('DELETE FROM monitors WHERE id = ?', id));
  });

  it('answers 503 with Retry-After and a clear message, no stack, while the store is unavailable', async () => {
    const outage = new StoreUnavailableError('the PostgreSQL server cannot be reached (ECONNREFUSED)', 7);
    const monitorId = idOf(await t.a.post('/monitors', httpMonitor()));
    const transaction = vi.spyOn(t.service.store, 'transaction').mockRejectedValue(outage);
    try {
      const response = await t.a.post('/incidents', { title: 'During the outage', message: 'Investigating.', severity: 'minor', monitorIds: [monitorId] });
      expectError(response, 503, 'service_unavailable');
      expect(response.headers.get('retry-after')).toBe('7');
      expect(response.text).toContain('nothing was saved');
      expect(response.text).not.toMatch(/ECONNREFUSED|StoreUnavailableError|\bat \S+ \(/);
      expect(t.logs.some((line) => line.includes('store unavailable on POST') && line.includes('/incidents'))).toBe(true);
    } finally {
      transaction.mockRestore();
    }
    expect((await t.a.get('/incidents')).json).toMatchObject({ pagination: { total: 0 } });
    await t.a.delete(`/monitors/${monitorId}`);
  });
});

describe.each(DIALECTS)('default body limit on %s', (dialect) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService(on(dialect));
  });
  afterAll(() => t.close());

  it('rejects a body over 1 MiB with 413 by default', async () => {
    const payload = (size: number) => JSON.stringify({ name: 'big', type: 'http', url: 'https://example.com', body: 'x'.repeat(size) });
    const over = await t.a.request('POST', '/monitors', { rawBody: payload(1024 * 1024), headers: { 'content-type': 'application/json' } });
    expectError(over, 413, 'payload_too_large');
    // Within the byte limit, the contract's own 64 KiB cap on `body` applies.
    const within = await t.a.request('POST', '/monitors', { rawBody: payload(100_000), headers: { 'content-type': 'application/json' } });
    expectError(within, 400, 'validation_error');
  });
});

describe.each(DIALECTS)('rate limiting on %s', (dialect) => {
  let t: TestService;
  let clock = Date.parse('2030-01-01T00:00:00.000Z');
  beforeAll(async () => {
    t = await startTestService({ ...on(dialect), rateLimits: { free: 3, pro: 5, windowSeconds: 60 }, now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  it('limits each key by its plan and says when to retry', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await t.b.get('/monitors');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe('3');
      expect(response.headers.get('ratelimit-remaining')).toBe(String(2 - i));
    }
    clock += 15_000;
    const limited = await t.b.get('/monitors');
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('45');

    // The pro key has its own, larger budget.
    for (let i = 0; i < 5; i++) expect((await t.a.get('/monitors')).status).toBe(200);
    expectError(await t.a.get('/monitors'), 429, 'rate_limited');

    clock += 60_000;
    expect((await t.b.get('/monitors')).status).toBe(200);
  });

  it('does not let a limited request write', async () => {
    clock += 120_000;
    for (let i = 0; i < 3; i++) await t.b.get('/monitors');
    expectError(await t.b.post('/monitors', httpMonitor()), 429, 'rate_limited');
    clock += 60_000;
    expect((await t.b.get('/monitors')).json).toMatchObject({ pagination: { total: 0 } });
  });
});

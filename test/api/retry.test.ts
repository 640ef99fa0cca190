/** Which failures are retried, how long the client waits, and when it gives up. */
import { afterEach, describe, expect, it } from 'vitest';
import { InternalServerError, RateLimitError } from '../../src/api/index.ts';
import { backoffMs, DEFAULT_RETRY_POLICY, retryDelayMs } from '../../src/api/retry.ts';
import { parseRetryAfter } from '../../src/api/retry-after.ts';
import * as fx from './support/fixtures.ts';
import type { FakeReply } from './support/fake-api.ts';
import { startHarness, type Harness } from './support/harness.ts';

let current: Harness | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});
const start = async (...args: Parameters<typeof startHarness>) => (current = await startHarness(...args));

const rateLimited = (retryAfter: string): FakeReply => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  json: { error: { code: 'rate_limited', message: 'Too many requests' } },
});
const unavailable = { status: 503, json: { error: { code: 'internal_error', message: 'Try again' } } };

describe('retries over HTTP', () => {
  it('retries a 429 after exactly the Retry-After seconds', async () => {
    const h = await start();
    h.api.reply(rateLimited('3'), { json: { data: fx.organization } });
    await expect(h.client.organization.get()).resolves.toEqual(fx.organization);
    expect(h.api.requests).toHaveLength(2);
    expect(h.sleeps).toEqual([3_000]);
  });

  it('honours Retry-After with a real (short) wait', async () => {
    const h = await start({ sleep: undefined });
    h.api.reply(rateLimited('1'), { json: { data: fx.organization } });
    const started = Date.now();
    await h.client.organization.get();
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(h.api.requests).toHaveLength(2);
  });

  it('retries a 503 with backoff, then succeeds', async () => {
    const h = await start();
    h.api.reply(unavailable, unavailable, { json: { data: [fx.monitor], pagination: fx.pagination(1) } });
    const page = await h.client.monitors.list();
    expect(page.data).toHaveLength(1);
    expect(h.api.requests).toHaveLength(3);
    expect(h.sleeps).toHaveLength(2);
    expect(h.sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(h.sleeps[0]).toBeLessThanOrEqual(500);
    expect(h.sleeps[1]).toBeGreaterThanOrEqual(500);
    expect(h.sleeps[1]).toBeLessThanOrEqual(1_000);
  });

  it('gives up after maxRetries with the class of the last answer', async () => {
    const h = await start({ maxRetries: 2 });
    h.api.setDefault(() => unavailable);
    const error = await h.client.monitors.get('mon_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(503);
    expect(h.api.requests).toHaveLength(3);
  });

  it('maxRetries 0 sends once', async () => {
    const h = await start({ maxRetries: 0 });
    h.api.setDefault(() => unavailable);
    await expect(h.client.monitors.get('mon_1')).rejects.toBeInstanceOf(InternalServerError);
    expect(h.api.requests).toHaveLength(1);
  });

  it('never retries a POST, even on 503 or 429', async () => {
    const h = await start();
    h.api.setDefault(() => unavailable);
    await expect(h.client.incidents.create({ monitorIds: [], title: 't', message: 'm' })).rejects.toBeInstanceOf(InternalServerError);
    await expect(h.client.monitors.run('mon_1')).rejects.toBeInstanceOf(InternalServerError);
    h.api.reply(rateLimited('1'));
    await expect(h.client.maintenance.start('mw_1')).rejects.toBeInstanceOf(RateLimitError);
    expect(h.api.requests).toHaveLength(3);
    expect(h.sleeps).toEqual([]);
  });

  it('never retries a PATCH', async () => {
    const h = await start();
    h.api.setDefault(() => unavailable);
    await expect(h.client.monitors.update('mon_1', { active: false })).rejects.toBeInstanceOf(InternalServerError);
    expect(h.api.requests).toHaveLength(1);
  });

  it('retries DELETE (idempotent)', async () => {
    const h = await start();
    h.api.reply(unavailable, { status: 204 });
    await h.client.incidents.delete('inc_1');
    expect(h.api.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('does not wait out a Retry-After above the cap: throws RateLimitError at once', async () => {
    const h = await start();
    h.api.reply(rateLimited('120'));
    const error = (await h.client.organization.get().catch((caught: unknown) => caught)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBe(120);
    expect(error.code).toBe('rate_limited');
    expect(h.api.requests).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it('does not retry 4xx other than 429', async () => {
    const h = await start();
    h.api.setDefault(() => ({ status: 404, json: { error: { code: 'not_found', message: 'gone' } } }));
    await expect(h.client.monitors.get('x')).rejects.toMatchObject({ status: 404 });
    expect(h.api.requests).toHaveLength(1);
  });
});

describe('retry timing', () => {
  const pinned = (random: number) => ({ ...DEFAULT_RETRY_POLICY, random: () => random });

  it('backs off exponentially with equal jitter and a cap', () => {
    expect(backoffMs(0, pinned(0))).toBe(250);
    expect(backoffMs(0, pinned(0.999))).toBeCloseTo(500, 0);
    expect(backoffMs(3, pinned(0))).toBe(2_000);
    expect(backoffMs(10, pinned(0))).toBe(4_000);
    expect(backoffMs(10, pinned(0.999))).toBeLessThanOrEqual(8_000);
  });

  it('uses Retry-After on a 503 too, when present', () => {
    const error = new InternalServerError({ method: 'GET', path: '/api/v1/x', status: 503, body: undefined, retryAfterSeconds: 2 });
    expect(retryDelayMs(error, 0, DEFAULT_RETRY_POLICY)).toBe(2_000);
    expect(retryDelayMs(error, 2, DEFAULT_RETRY_POLICY)).toBeUndefined();
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('honours an HTTP-date Retry-After over HTTP', async () => {
    const h = await start();
    const inTwoSeconds = new Date(Date.now() + 2_000).toUTCString();
    h.api.reply(rateLimited(inTwoSeconds), { json: { data: fx.organization } });
    await h.client.organization.get();
    expect(h.sleeps).toHaveLength(1);
    expect(h.sleeps[0]).toBeGreaterThan(0);
    expect(h.sleeps[0]).toBeLessThanOrEqual(2_000);
  });
});

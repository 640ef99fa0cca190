import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOrganization, startService } from '../../../src/service/index.ts';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { closedPort } from '../checks/loopback.ts';
import { Client, dataOf, idOf, listOf } from '../helpers.ts';
import { startEngineService, type EngineTest } from './harness.ts';
import { ManualClock } from './manual-clock.ts';
import { openPort } from './tcp-port.ts';

const settle = (ms = 60) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduler', () => {
  let t: EngineTest;
  let target: TargetServer;
  beforeEach(async () => {
    target = await startTargetServer();
    t = await startEngineService();
  });
  afterEach(async () => {
    await t.close();
    await target.close();
  });

  const monitor = async (body: Record<string, unknown>) => idOf(await t.a.post('/monitors', { name: 'Target', type: 'http', url: `${target.url}/`, interval: 30, timeout: 2, ...body }));

  it('checks each active monitor from each of its regions at its interval and records each check', async () => {
    const id = await monitor({ regions: ['eu', 'us', 'asia'] });
    t.clock.advance(0);
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(3));
    const first = listOf(await t.a.get(`/monitors/${id}/checks`)).items;
    expect(first.map((check) => check.region).sort()).toEqual(['asia', 'eu', 'us']);
    for (const check of first) {
      expect(check).toMatchObject({ status: 'up', statusCode: 200, checkedAt: '2030-01-01T00:00:00.000Z', error: null });
      expect(Number.isInteger(check.latency)).toBe(true);
    }
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toMatchObject({ currentStatus: 'up', lastStatus: 'up', lastCheckedAt: '2030-01-01T00:00:00.000Z' });

    t.clock.advance(29_999);
    await settle();
    expect(await t.checks(id)).toBe(3);
    t.clock.advance(1);
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(6));
    expect(dataOf(await t.a.get(`/monitors/${id}`)).lastCheckedAt).toBe('2030-01-01T00:00:30.000Z');
    expect(target.received.filter((request) => request.url === '/')).toHaveLength(6);
  });

  it('evaluates every rule, goes down after two failures in a row and recovers after one success', async () => {
    const id = await monitor({
      timeout: 1,
      rules: [
        { type: 'status_code', operator: 'eq', value: 200 },
        { type: 'body', operator: 'contains', value: 'operational' },
        { type: 'header', name: 'content-type', operator: 'contains', value: 'text/plain' },
        { type: 'response_time', operator: 'lt', value: 900 },
      ],
    });
    const step = async (mode: TargetServer['mode'], count: number) => {
      target.mode = mode;
      t.clock.advance(count === 1 ? 0 : 30_000);
      await vi.waitFor(async () => expect(await t.checks(id)).toBe(count), { timeout: 3000 });
      return { check: listOf(await t.a.get(`/monitors/${id}/checks?limit=1`)).items[0], monitor: dataOf(await t.a.get(`/monitors/${id}`)) };
    };

    expect(await step('up', 1)).toMatchObject({ check: { status: 'up', statusCode: 200 }, monitor: { currentStatus: 'up' } });
    const error = await step('error', 2);
    expect(error.check).toMatchObject({ status: 'down', statusCode: 500, error: expect.stringContaining('status code') });
    // One failure is a blip.
    expect(error.monitor).toMatchObject({ currentStatus: 'up', lastStatus: 'down' });
    const wrongBody = await step('wrong-body', 3);
    expect(wrongBody.check).toMatchObject({ status: 'down', statusCode: 200, error: expect.stringContaining('operational') });
    expect(wrongBody.monitor).toMatchObject({ currentStatus: 'down', lastStatus: 'down' });
    const slow = await step('slow', 4);
    expect(slow.check).toMatchObject({ status: 'down', error: 'timed out after 1 s' });
    expect(await step('up', 5)).toMatchObject({ check: { status: 'up' }, monitor: { currentStatus: 'up', lastStatus: 'up' } });
  });

  it('stops checking a paused monitor at once, discarding a check in flight, and resumes with a fresh schedule', async () => {
    const id = await monitor({ timeout: 1 });
    t.clock.advance(0);
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(1));

    target.mode = 'slow';
    t.clock.advance(30_000);
    await vi.waitFor(async () => expect(target.received).toHaveLength(2));
    expect((await t.a.patch(`/monitors/${id}`, { active: false })).status).toBe(200);
    // The check in flight times out after 1 s; its result belongs to a paused monitor and is dropped.
    await settle(1300);
    t.clock.advance(120_000);
    await settle();
    expect(target.received).toHaveLength(2);
    expect(await t.checks(id)).toBe(1);
    expect(dataOf(await t.a.get(`/monitors/${id}`))).toMatchObject({ currentStatus: 'paused', lastStatus: 'up' });

    target.mode = 'up';
    await t.a.patch(`/monitors/${id}`, { active: true });
    expect(dataOf(await t.a.get(`/monitors/${id}`)).currentStatus).toBe('pending');
    t.clock.advance(0);
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(2));
    expect(dataOf(await t.a.get(`/monitors/${id}`)).currentStatus).toBe('up');
  });

  it('stops checking a deleted monitor and removes its history', async () => {
    const id = await monitor({});
    const other = await monitor({ name: 'Other', url: `${target.url}/landed` });
    t.clock.advance(0);
    await vi.waitFor(async () => expect(await t.checks(id) + await t.checks(other)).toBe(2));
    expect((await t.a.delete(`/monitors/${id}`)).status).toBe(204);
    expect(await t.checks(id)).toBe(0);
    t.clock.advance(30_000);
    await vi.waitFor(async () => expect(await t.checks(other)).toBe(2));
    await settle();
    expect(target.received.filter((request) => request.url === '/')).toHaveLength(1);
    expect(await t.checks(id)).toBe(0);
  });

  it('reschedules a monitor whose interval or regions change', async () => {
    const id = await monitor({ interval: 60 });
    t.clock.advance(0);
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(1));
    await t.a.patch(`/monitors/${id}`, { interval: 10, regions: ['us', 'asia'] });
    t.clock.advance(0);
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(3));
    t.clock.advance(10_000);
    await vi.waitFor(async () => expect(await t.checks(id)).toBe(5));
    const regions = listOf(await t.a.get(`/monitors/${id}/checks`)).items.map((check) => check.region);
    expect(regions.slice(0, 4).sort()).toEqual(['asia', 'asia', 'us', 'us']);
  });

  it('never lets a slow check delay the others', async () => {
    target.mode = 'slow';
    const slow = await monitor({ name: 'Slow', timeout: 3 });
    const fast = await Promise.all([1, 2, 3].map((n) => monitor({ name: `Fast ${n}`, url: `${target.url}/landed` })));
    t.clock.advance(0);
    await vi.waitFor(async () => expect(await Promise.all(fast.map((id) => t.checks(id)))).toEqual([1, 1, 1]), { timeout: 1000 });
    expect(await t.checks(slow)).toBe(0);
  });
});

describe('scheduler limits', () => {
  let target: TargetServer;
  beforeEach(async () => {
    target = await startTargetServer();
  });
  afterEach(() => target.close());

  it('runs at most `concurrency` checks at once', async () => {
    const t = await startEngineService({ engine: { concurrency: 2 } });
    target.mode = 'slow';
    // Two organizations: one alone leaves one of the two slots free for another (see fairness.test.ts).
    const ids = await Promise.all([1, 2, 3, 4].map((n) => (n % 2 ? t.a : t.b).post('/monitors', { name: `Slow ${n}`, type: 'http', url: `${target.url}/`, timeout: 1 }).then(idOf)));
    t.clock.advance(0);
    await vi.waitFor(async () => expect(target.received).toHaveLength(2));
    await settle(400);
    expect(target.received).toHaveLength(2);
    await vi.waitFor(async () => expect(target.received).toHaveLength(4), { timeout: 3000 });
    await vi.waitFor(async () => expect(await Promise.all(ids.map((id) => t.checks(id)))).toEqual([1, 1, 1, 1]), { timeout: 3000 });
    await t.close();
  });

  it('spreads first checks over the interval after a restart instead of bursting', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'porchlight-restart-'));
    const databasePath = join(folder, 'engine.db');
    try {
      const quiet = { databasePath, log: () => undefined, notifications: { deliver: false }, allowPrivateTargets: true };
      const first = await startService({ ...quiet, scheduler: false });
      const { apiKey } = await createOrganization(first.store, { name: 'Restart', plan: 'pro' });
      const client = new Client(first.url, apiKey);
      const ids: string[] = [];
      for (let n = 0; n < 10; n++) ids.push(idOf(await client.post('/monitors', { name: `M${n}`, type: 'http', url: `${target.url}/landed`, interval: 100 })));
      await first.close();

      const clock = new ManualClock();
      const jitter = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
      let next = 0;
      const second = await startService({ ...quiet, now: clock.now, engine: { timers: clock, random: () => jitter[next++ % jitter.length] ?? 0 } });
      const total = async () => (await Promise.all(ids.map((id) => second.store.checks.count(id)))).reduce((sum, n) => sum + n, 0);
      clock.advance(0);
      await vi.waitFor(async () => expect(await total()).toBe(1));
      clock.advance(35_000);
      await vi.waitFor(async () => expect(await total()).toBe(4));
      await settle();
      expect(await total()).toBe(4);
      clock.advance(65_000);
      await vi.waitFor(async () => expect(await total()).toBe(11));
      await second.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('TCP monitors', () => {
  it('go down after the configured number of failures once the listener closes, and recover on the first success', async () => {
    const t = await startEngineService({ failureThreshold: 3 });
    const port = await closedPort();
    let listener = await openPort(port);
    const id = idOf(await t.a.post('/monitors', { name: 'Database', type: 'tcp', host: '127.0.0.1', port, interval: 10, timeout: 1 }));
    const tick = async (expected: number) => {
      t.clock.advance(expected === 1 ? 0 : 10_000);
      await vi.waitFor(async () => expect(await t.checks(id)).toBe(expected));
      return dataOf(await t.a.get(`/monitors/${id}`));
    };
    expect(await tick(1)).toMatchObject({ currentStatus: 'up', lastStatus: 'up' });
    await listener.close();
    expect(await tick(2)).toMatchObject({ currentStatus: 'up', lastStatus: 'down' });
    expect(await tick(3)).toMatchObject({ currentStatus: 'up', lastStatus: 'down' });
    expect(await tick(4)).toMatchObject({ currentStatus: 'down', lastStatus: 'down' });
    expect(listOf(await t.a.get(`/monitors/${id}/checks?limit=1`)).items[0]).toMatchObject({ status: 'down', statusCode: null, error: 'connection refused', region: 'eu' });
    listener = await openPort(port);
    expect(await tick(5)).toMatchObject({ currentStatus: 'up', lastStatus: 'up' });
    await listener.close();
    await t.close();
  });
});

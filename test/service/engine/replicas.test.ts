/**
 * Two embedded APIs (two processes' worth: two stores, two pools, two schedulers) on one
 * PostgreSQL database behave as one: each due check runs once, a monitor that goes down opens
 * one incident and each notification is delivered once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordCheckOutcome } from '../../../src/service/engine/record-check.ts';
import { createOrganization, startService, Store, type RunningService, type ServiceOptions } from '../../../src/service/index.ts';
import type { StoreLocation } from '../../../src/store/location.ts';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { Client, idOf } from '../helpers.ts';
import { DIALECTS, useDialects } from '../../support/postgres.ts';
import { ManualClock } from './manual-clock.ts';

const dialects = useDialects();

describe.runIf(DIALECTS.includes('postgres'))('two embedded APIs on one PostgreSQL database', () => {
  const running: RunningService[] = [];
  const targets: TargetServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.close()));
    await Promise.all(targets.splice(0).map((target) => target.close()));
  });

  const place = (): { databaseUrl: string; databaseSchema: string } => {
    const where = dialects.location('postgres');
    if (where.dialect !== 'postgres' || where.schema === undefined) throw new Error('expected a PostgreSQL schema');
    return { databaseUrl: where.url, databaseSchema: where.schema };
  };

  const start = async (shared: { databaseUrl: string; databaseSchema: string }, clock: ManualClock, options: Partial<ServiceOptions> = {}) => {
    const service = await startService({
      databasePath: ':memory:',
      ...shared,
      log: () => undefined,
      now: clock.now,
      allowPrivateTargets: true,
      failureThreshold: 1,
      engine: { timers: clock, random: () => 0 },
      notifications: { deliver: true, retryDelaysMs: [], webhookTimeoutMs: 2_000 },
      ...options,
    });
    running.push(service);
    return service;
  };

  it('runs each due check once across both schedulers, opens one incident and delivers each notification once', async () => {
    const target = await startTargetServer();
    const hooks = await startTargetServer();
    targets.push(target, hooks);
    const shared = place();
    const clock = new ManualClock();
    const first = await start(shared, clock);
    const { apiKey } = await createOrganization(first.store, { name: 'Replicas', plan: 'pro' });
    const client = new Client(first.url, apiKey);
    await client.post('/notifications', { name: 'hook', type: 'slack', webhookUrl: `${hooks.url}/hook` });
    const monitor = idOf(await client.post('/monitors', { name: 'Shared', type: 'http', url: `${target.url}/`, interval: 30, timeout: 2, regions: ['eu', 'us'], autoIncidents: true }));
    // The second starts after the monitor exists: its first resync schedules it too.
    const second = await start(shared, clock);
    const checks = () => first.store.checks.count(monitor);

    clock.advance(0);
    await vi.waitFor(async () => expect(await checks()).toBe(2), { timeout: 10_000 });
    clock.advance(30_000);
    await vi.waitFor(async () => expect(await checks()).toBe(4), { timeout: 10_000 });
    // Both schedulers' timers fired for each (monitor, region) twice; each check ran once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await checks()).toBe(4);
    expect(target.received).toHaveLength(4);

    target.mode = 'error';
    clock.advance(30_000);
    await vi.waitFor(async () => expect(await checks()).toBe(6), { timeout: 10_000 });
    await vi.waitFor(() => expect(hooks.received.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const incidents = await first.store.incidents.list((await first.store.monitors.getState(monitor))?.organizationId ?? '', { limit: 10, offset: 0 });
    expect(incidents.map((incident) => incident.title)).toEqual(['Shared is down']);
    const events = hooks.received.map((request) => (JSON.parse(request.body) as { text?: string }).text ?? '');
    // One "down" and one "incident created", whichever process recorded the failing checks.
    expect(events).toHaveLength(2);
    expect(second.url).not.toBe(first.url);
  }, 60_000);

  it('runs a dead claimer\'s check when it was due: the other scheduler follows the shared due time', async () => {
    const target = await startTargetServer();
    targets.push(target);
    const shared = place();
    const clock = new ManualClock();
    const start0 = clock.now().getTime();
    const first = await start(shared, clock);
    const { apiKey } = await createOrganization(first.store, { name: 'Takeover', plan: 'pro' });
    const monitor = idOf(await new Client(first.url, apiKey).post('/monitors', { name: 'Followed', type: 'http', url: `${target.url}/`, interval: 30, timeout: 2, regions: ['eu'] }));
    // The second's own phase is half an interval after the first's.
    const second = await start(shared, clock, { engine: { timers: clock, random: () => 0.5 } });
    const checks = () => first.store.checks.count(monitor);
    clock.advance(0);
    await vi.waitFor(async () => expect(await checks()).toBe(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(clock.dueTimes).toContain(start0 + 15_000), { timeout: 10_000 });
    // The second's timer fires at +15 s and finds the check claimed until +30 s: it moves to +30 s.
    clock.advance(15_000);
    await vi.waitFor(() => expect(clock.dueTimes).not.toContain(start0 + 45_000), { timeout: 10_000 });
    expect(await checks()).toBe(1);
    // The first stops without a word (its claim stays); at +30 s the second runs the check.
    running.splice(running.indexOf(first), 1);
    await first.close();
    clock.advance(15_000);
    await vi.waitFor(async () => expect(await second.store.checks.count(monitor)).toBe(2), { timeout: 10_000 });
  }, 60_000);

  it('holds a key\'s rate limit across both', async () => {
    const shared = place();
    const clock = new ManualClock(Date.parse('2030-01-01T00:00:10.000Z'));
    const quiet = { scheduler: false, notifications: { deliver: false }, rateLimits: { free: 4, pro: 100, windowSeconds: 60 } };
    const first = await start(shared, clock, quiet);
    const second = await start(shared, clock, quiet);
    const { apiKey } = await createOrganization(first.store, { name: 'Limited', plan: 'free' });
    const statuses: number[] = [];
    for (const service of [first, second, first, second, first, second]) statuses.push((await new Client(service.url, apiKey).get('/monitors')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const limited = await new Client(second.url, apiKey).get('/monitors');
    // The window is the minute the clock is in, the same for both: 50 s left.
    expect(limited.headers.get('retry-after')).toBe('50');
    clock.advance(50_000);
    expect((await new Client(second.url, apiKey).get('/monitors')).status).toBe(200);
  }, 60_000);

  it('holds the 50-monitor limit of an organization when both create its last monitors at once', async () => {
    const shared = place();
    const clock = new ManualClock();
    const quiet = { scheduler: false, notifications: { deliver: false } };
    const first = await start(shared, clock, quiet);
    const second = await start(shared, clock, quiet);
    const { organizationId, apiKey } = await createOrganization(first.store, { name: 'Almost full', plan: 'pro' });
    for (let index = 0; index < 48; index++) {
      await first.store.monitors.insert(organizationId, { name: `m${index}`, type: 'http', url: 'https://example.com/', interval: 60, timeout: 10, method: 'GET', headers: {}, regions: ['eu'], autoIncidents: false, rules: [] }, new Date());
    }
    const clients = [new Client(first.url, apiKey), new Client(second.url, apiKey)];
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, index) => clients[index % 2]?.post('/monitors', { name: `race ${index}`, type: 'http', url: 'https://example.com/' }).then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(await first.store.monitors.count(organizationId)).toBe(50);
  }, 60_000);

  it('opens one automatic incident when both record a monitor going down at once', async () => {
    const location: StoreLocation = dialects.location('postgres');
    const one = await Store.open(location);
    const two = await Store.open(location);
    try {
      const { organizationId } = await createOrganization(one, { name: 'Race', plan: 'pro' });
      const monitor = await one.monitors.insert(organizationId, { name: 'Raced', type: 'http', url: 'https://example.com/', interval: 60, timeout: 10, method: 'GET', headers: {}, regions: ['eu', 'us'], autoIncidents: true, rules: [] }, new Date());
      const outcome = { status: 'down' as const, latencyMs: 5, statusCode: 500, error: 'HTTP 500' };
      const now = () => new Date();
      const recorded = await Promise.all(
        [one, two, one, two].map((store, index) =>
          recordCheckOutcome({ store, now, failureThreshold: 1 }, monitor.id, { region: index % 2 === 0 ? 'eu' : 'us', checkedAt: new Date().toISOString(), outcome }),
        ),
      );
      const created = recorded.flatMap((result) => result?.events ?? []).filter((event) => event.type === 'onIncidentCreated');
      expect(created).toHaveLength(1);
      expect(await one.incidents.count(organizationId)).toBe(1);
      const state = await two.monitors.getState(monitor.id);
      // No failure lost between the two: the streak counts all four.
      expect(state?.consecutiveFailures).toBe(4);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 60_000);
});

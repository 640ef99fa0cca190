/**
 * The notification outbox of the API's channels, shared by processes on one store: each (event,
 * channel) queued once whoever raises it, claimed by one sender, a dead holder's claim settled
 * after its lease (never handed over: sent by another; handed over: unknown, never re-sent), a
 * late result refused. On both dialects; two services on one PostgreSQL deliver each once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createChannelSchema } from '../../../src/contract/notification.ts';
import type { NotificationContent } from '../../../src/service/events/notification-content.ts';
import { createOrganization, startService, Store, type RunningService } from '../../../src/service/index.ts';
import { NotificationOutboxClaims } from '../../../src/service/store/notification-outbox.ts';
import type { DialectName } from '../../../src/store/database.ts';
import type { StoreLocation } from '../../../src/store/location.ts';
import { startTargetServer, type TargetServer } from '../checks/target-server.ts';
import { Client, idOf } from '../helpers.ts';
import { DIALECTS, useDialects } from '../../support/postgres.ts';

const dialects = useDialects();
const folder = mkdtempSync(join(tmpdir(), 'porchlight-outbox-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

/** A place two stores (two processes' worth) can open at once: a SQLite file, or a PostgreSQL schema. */
const sharedPlace = (dialect: DialectName): StoreLocation =>
  dialect === 'sqlite' ? { dialect: 'sqlite', path: join(folder, `api-${++files}.db`) } : dialects.location('postgres');

const content = (title: string): NotificationContent => ({ event: 'onIncidentCreated', organization: 'Org', title, summary: 'Down.', fields: [], emoji: ':rotating_light:', at: '2030-01-01T00:00:00.000Z' });

async function twoStores(dialect: DialectName): Promise<{ one: Store; two: Store; organizationId: string; channelId: string }> {
  const place = sharedPlace(dialect);
  const one = await Store.open(place);
  const two = await Store.open(place);
  const { organizationId } = await createOrganization(one, { name: 'Org', plan: 'pro' });
  const channel = await one.notifications.insert(organizationId, createChannelSchema.parse({ name: 'hook', type: 'slack', webhookUrl: 'http://127.0.0.1:9/hook' }), new Date());
  return { one, two, organizationId, channelId: channel.id };
}

describe.each(DIALECTS)('the notification outbox on %s', (dialect) => {
  const stores: Store[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('queues each (event, channel) once, whichever store raises it and however often', async () => {
    const { one, two, organizationId, channelId } = await twoStores(dialect);
    stores.push(one, two);
    const row = { dedupeKey: `onIncidentCreated:inc_1:upd_1|${channelId}`, organizationId, channelId, content: content('Outage') };
    const added = await Promise.all([one.notificationOutbox.queue([row], Date.now()), two.notificationOutbox.queue([row], Date.now()), one.notificationOutbox.queue([row], Date.now())]);
    expect(added.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await one.notificationOutbox.countByState()).toEqual({ pending: 1 });
  });

  it('hands a live claim to no one, takes over a dead holder\'s claim after its lease, and refuses the late result', async () => {
    const { one, two, organizationId, channelId } = await twoStores(dialect);
    stores.push(one, two);
    const dead = new NotificationOutboxClaims(one.db, 1_000);
    const alive = new NotificationOutboxClaims(two.db, 1_000);
    const start = Date.now();
    await one.notificationOutbox.queue([{ dedupeKey: `a|${channelId}`, organizationId, channelId, content: content('Idle claim') }], start);

    expect((await dead.claimDue(start, 10)).map((item) => item.content.title)).toEqual(['Idle claim']);
    expect(await alive.claimDue(start, 10)).toEqual([]);
    // Within the lease: nothing to settle.
    expect(await alive.reclaimExpired(start + 500)).toEqual({ requeued: 0, inDoubt: 0 });
    // The holder died before handing it over: pending again, sent by the other.
    expect(await alive.reclaimExpired(start + 1_500)).toEqual({ requeued: 1, inDoubt: 0 });
    const [taken] = await alive.claimDue(start + 1_500, 10);
    expect(taken?.attempt).toBe(1);
    if (!taken) throw new Error('expected the row to be claimed');
    expect(await alive.markStarted(taken.id, start + 1_500)).toBe(true);
    // The old holder wakes up: it may not start, and its result is refused.
    expect(await dead.markStarted(taken.id, start + 1_600)).toBe(false);
    let lateRecorded = false;
    expect(await dead.finish(taken.id, null, start + 1_600, async () => void (lateRecorded = true))).toBe(false);
    expect(lateRecorded).toBe(false);
    expect(await alive.finish(taken.id, null, start + 1_700, async () => undefined)).toBe(true);
    expect(await one.notificationOutbox.countByState()).toEqual({ done: 1 });
  });

  it('marks a claim handed over by a holder that died unknown and never sends it again', async () => {
    const { one, two, organizationId, channelId } = await twoStores(dialect);
    stores.push(one, two);
    const dead = new NotificationOutboxClaims(one.db, 1_000);
    const alive = new NotificationOutboxClaims(two.db, 1_000);
    const start = Date.now();
    await one.notificationOutbox.queue([{ dedupeKey: `b|${channelId}`, organizationId, channelId, content: content('In flight') }], start);
    const [item] = await dead.claimDue(start, 10);
    if (!item) throw new Error('expected a claim');
    expect(await dead.markStarted(item.id, start)).toBe(true);
    // A renewal keeps a live holder's claim: not settled at the first lease's end.
    expect(await dead.renewLeases(start + 900, [item.id])).toBe(1);
    expect(await alive.reclaimExpired(start + 1_500)).toEqual({ requeued: 0, inDoubt: 0 });
    expect(await alive.reclaimExpired(start + 2_000)).toEqual({ requeued: 0, inDoubt: 1 });
    expect(await alive.claimDue(start + 10_000, 10)).toEqual([]);
    expect(await one.notificationOutbox.countByState()).toEqual({ unknown: 1 });
  });

  it('purges rows done with for longer than the retention, in bounded batches, once each with two processes purging at once', async () => {
    const { one, two, organizationId, channelId } = await twoStores(dialect);
    stores.push(one, two);
    const RETENTION = 7 * 24 * 3_600_000;
    const claims = new NotificationOutboxClaims(one.db, 60_000);
    const other = new NotificationOutboxClaims(two.db, 60_000);
    const start = Date.now() - 2 * RETENTION;
    await one.notificationOutbox.queue(['a', 'b', 'c', 'd'].map((key) => ({ dedupeKey: `${key}|${channelId}`, organizationId, channelId, content: content(key) })), start);
    const [doneOne, doneTwo, doneThree, waiting] = await claims.claimDue(start, 10);
    for (const item of [doneOne!, doneTwo!, doneThree!]) expect(await claims.finish(item.id, null, start, async () => undefined)).toBe(true);
    expect(await claims.finish(waiting!.id, start + 3 * RETENTION, start, async () => undefined)).toBe(true);
    // A week-old row is kept one more day: queued and done a day inside the retention.
    await one.notificationOutbox.queue([{ dedupeKey: `recent|${channelId}`, organizationId, channelId, content: content('recent') }], start + RETENTION + 86_400_000);
    const [recent] = await claims.claimDue(start + RETENTION + 86_400_000, 10);
    expect(await claims.finish(recent!.id, null, start + RETENTION + 86_400_000, async () => undefined)).toBe(true);
    const now = start + 2 * RETENTION;
    const [first, second] = await Promise.all([claims.purgeDone(now, RETENTION, 2), other.purgeDone(now, RETENTION, 2)]);
    expect(Math.max(first, second)).toBeLessThanOrEqual(2);
    let purged = first + second;
    for (let round = 0; round < 3; round += 1) purged += await other.purgeDone(now, RETENTION, 2);
    expect(purged).toBe(3);
    // The attempt waiting for its retry stays however old; the recent one stays.
    expect(await one.notificationOutbox.countByState()).toEqual({ done: 1, pending: 1 });
  });

  it('renews only the claims listed (a failed attempt\'s runs out) and takes back one never handed over', async () => {
    const { one, two, organizationId, channelId } = await twoStores(dialect);
    stores.push(one, two);
    const holder = new NotificationOutboxClaims(one.db, 1_000);
    const other = new NotificationOutboxClaims(two.db, 1_000);
    const start = Date.now();
    await one.notificationOutbox.queue(['x', 'y', 'z'].map((key) => ({ dedupeKey: `${key}|${channelId}`, organizationId, channelId, content: content(key) })), start);
    const [sending, failed, givenBack] = await holder.claimDue(start, 10);
    if (!sending || !failed || !givenBack) throw new Error('expected three claims');
    expect(await holder.markStarted(sending.id, start)).toBe(true);
    // Issue 29: the attempt of `failed` ended without a result; it is no longer listed, so not kept alive.
    expect(await holder.renewLeases(start + 900, [sending.id])).toBe(1);
    expect(await holder.release(givenBack.id, start + 950)).toBe(true);
    expect(await holder.release(sending.id, start + 950)).toBe(false);
    expect(await other.reclaimExpired(start + 1_500)).toEqual({ requeued: 1, inDoubt: 0 });
    const taken = await other.claimDue(start + 1_500, 10);
    expect(taken.map((item) => item.id).sort()).toEqual([failed.id, givenBack.id].sort());
  });

  it('a running service sends a dead process\'s unsent claim once its lease ran out', async () => {
    const hooks = await startTargetServer();
    const place = sharedPlace(dialect);
    const dying = await Store.open(place);
    let service: RunningService | null = null;
    try {
      const { organizationId, apiKey } = await createOrganization(dying, { name: 'Org', plan: 'pro' });
      const channel = await dying.notifications.insert(organizationId, createChannelSchema.parse({ name: 'hook', type: 'slack', webhookUrl: `${hooks.url}/hook` }), new Date());
      await dying.notificationOutbox.queue([{ dedupeKey: `c|${channel.id}`, organizationId, channelId: channel.id, content: content('Left behind') }], Date.now());
      // Claimed by a process that then died without sending (nothing renews its lease).
      expect(await new NotificationOutboxClaims(dying.db, 600).claimDue(Date.now(), 10)).toHaveLength(1);
      await dying.close();
      service = await startService({
        databasePath: place.dialect === 'sqlite' ? place.path : ':memory:',
        ...(place.dialect === 'postgres' && { databaseUrl: place.url, databaseSchema: place.schema }),
        log: () => undefined,
        scheduler: false,
        allowPrivateTargets: true,
        notifications: { deliver: true, retryDelaysMs: [], webhookTimeoutMs: 2_000, outbox: { leaseMs: 600, pollMs: 200 } },
      });
      await vi.waitFor(() => expect(hooks.received).toHaveLength(1), { timeout: 10_000, interval: 50 });
      expect((JSON.parse(hooks.received[0]?.body ?? '{}') as { text?: string }).text).toContain('Left behind');
      await vi.waitFor(async () => expect(await service?.store.notificationOutbox.countByState()).toEqual({ done: 1 }), { timeout: 5_000 });
      expect(await new Client(service.url, apiKey).get('/monitors')).toHaveProperty('status', 200);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(hooks.received).toHaveLength(1);
    } finally {
      await service?.close();
      await hooks.close();
    }
  }, 30_000);
});

describe.runIf(DIALECTS.includes('postgres'))('two services on one PostgreSQL database', () => {
  const running: RunningService[] = [];
  const targets: TargetServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.close()));
    await Promise.all(targets.splice(0).map((target) => target.close()));
  });

  it('deliver each (event, channel) once, whichever raised it and whichever sends it', async () => {
    const hooks = await startTargetServer();
    targets.push(hooks);
    const place = dialects.location('postgres');
    if (place.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    const start = async () => {
      const service = await startService({
        databasePath: ':memory:',
        databaseUrl: place.url,
        databaseSchema: place.schema,
        log: () => undefined,
        scheduler: false,
        allowPrivateTargets: true,
        notifications: { deliver: true, retryDelaysMs: [], webhookTimeoutMs: 2_000, outbox: { pollMs: 100 } },
      });
      running.push(service);
      return service;
    };
    const first = await start();
    const second = await start();
    const { apiKey } = await createOrganization(first.store, { name: 'Replicas', plan: 'pro' });
    const clients = [new Client(first.url, apiKey), new Client(second.url, apiKey)];
    await clients[0]?.post('/notifications', { name: 'hook one', type: 'slack', webhookUrl: `${hooks.url}/one` });
    await clients[1]?.post('/notifications', { name: 'hook two', type: 'slack', webhookUrl: `${hooks.url}/two` });
    const incidents = 12;
    await Promise.all(
      Array.from({ length: incidents }, async (_, index) => {
        const client = clients[index % 2];
        if (!client) throw new Error('no client');
        const id = idOf(await client.post('/incidents', { monitorIds: [], title: `Incident ${index}`, message: 'Down.' }));
        // Resolved through the other process, both at once: one of them raises "resolved".
        await Promise.all(clients.map((other) => other.patch(`/incidents/${id}`, { status: 'resolved', message: 'Fixed.' })));
      }),
    );
    // Per incident: created, resolved and one updated (the second PATCH), to each of two channels.
    const expected = incidents * 3 * 2;
    await vi.waitFor(() => expect(hooks.received.length).toBeGreaterThanOrEqual(expected), { timeout: 20_000, interval: 100 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hooks.received).toHaveLength(expected);
    const deliveryIds = hooks.received.map((request) => String(request.headers['x-porchlight-delivery']));
    expect(new Set(deliveryIds).size).toBe(expected);
    const texts = hooks.received.map((request) => (JSON.parse(request.body) as { text: string }).text);
    expect(texts.filter((text) => text.includes('Incident resolved'))).toHaveLength(incidents * 2);
    expect(texts.filter((text) => text.includes('Incident updated'))).toHaveLength(incidents * 2);
    const attempts = await first.store.db.all("SELECT COUNT(*) AS n FROM notification_deliveries WHERE outcome = 'delivered'");
    expect(Number(attempts[0]?.n)).toBe(expected);
    expect(await first.store.notificationOutbox.countByState()).toEqual({ done: expected });
  }, 60_000);
});

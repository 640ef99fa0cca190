/**
 * Two real API processes on one store (a SQLite file, or one PostgreSQL database), the first
 * killed with SIGKILL while a webhook receiver holds the answer to the notification it handed
 * over: the second settles that one as `unknown` once the lease is over and never sends it again,
 * and sends the one the dead process had queued but not yet claimed, once. Real processes
 * (test/service/support/api-process.ts, one send at a time), a receiver on loopback, a 1.5 s lease.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOrganization, Store } from '../../../src/service/index.ts';
import type { StoreLocation } from '../../../src/store/location.ts';
import { Client } from '../helpers.ts';
import { DIALECTS, useDialects } from '../../support/postgres.ts';
import { startReadyProcess, until } from '../../support/ready-process.ts';

const LEASE_MS = 1_500;
const dialects = useDialects();
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startApi(place: StoreLocation): Promise<{ child: ChildProcess; url: string }> {
  const started = await startReadyProcess('test/service/support/api-process.ts', { PORCHLIGHT_TEST_STORE: JSON.stringify(place), PORCHLIGHT_TEST_LEASE_MS: String(LEASE_MS) }, 'API', children);
  return { child: started.child, url: started.ready };
}

/** Counts POSTs per path; answers /hold never (until closed), everything else 200. */
async function startReceiver(): Promise<{ url: string; count(path: string): number; close(): Promise<void> }> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    req.resume();
    if (path !== '/hold') res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: (path) => counts.get(path) ?? 0,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe.each(DIALECTS)('the API notification outbox on %s, a process killed with SIGKILL', (dialect) => {
  it('leaves its handed-over delivery unknown (never re-sent) and its queued one to the other process, sent once', async () => {
    let place: StoreLocation;
    if (dialect === 'sqlite') {
      const folder = mkdtempSync(join(tmpdir(), 'porchlight-api-sigkill-'));
      cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
      place = { dialect: 'sqlite', path: join(folder, 'api.db') };
    } else {
      place = dialects.location('postgres');
    }
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const store = await Store.open(place);
    cleanups.push(() => store.close());
    const { apiKey } = await createOrganization(store, { name: 'Org', plan: 'pro' });

    const first = await startApi(place);
    const client = new Client(first.url, apiKey);
    // Created first, so its row is claimed first; the process sends one at a time.
    expect((await client.post('/notifications', { name: 'held', type: 'slack', webhookUrl: `${receiver.url}/hold` })).status).toBe(201);
    expect((await client.post('/notifications', { name: 'later', type: 'slack', webhookUrl: `${receiver.url}/later` })).status).toBe(201);
    expect((await client.post('/incidents', { monitorIds: [], title: 'Outage', message: 'Down.' })).status).toBe(201);
    await until(() => receiver.count('/hold') === 1, 'the held delivery to reach the receiver', 30_000, 25);
    const states = async () => Object.fromEntries((await store.db.all('SELECT state, COUNT(*) AS n FROM notification_outbox GROUP BY state')).map((row) => [String(row.state), Number(row.n)]));
    expect(await states()).toEqual({ sending: 1, pending: 1 });
    first.child.kill('SIGKILL');
    await new Promise<void>((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve() : first.child.once('exit', () => resolve())));

    await startApi(place);
    await until(() => receiver.count('/later') === 1, 'the queued delivery to be sent by the second process', 30_000, 25);
    await until(async () => (await states()).unknown === 1, 'the handed-over delivery to be settled as unknown', 30_000, 25);
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    expect(receiver.count('/hold')).toBe(1);
    expect(receiver.count('/later')).toBe(1);
    expect(await states()).toEqual({ done: 1, unknown: 1 });
  }, 90_000);
});

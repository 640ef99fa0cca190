/**
 * `node bench/webhook-fanout.ts [subscribers]`: webhook fan-out on loopback. N confirmed webhook
 * subscribers spread over 8 receiving hosts (127.0.0.1 … 127.0.0.8, each a node:http receiver
 * answering 204), plus one receiver that never answers; one incident. Measures how long until
 * every answering receiver has its delivery (the hanging one holds only its own host's slots),
 * with the default limits (16 in flight, 2 per host, 10 s timeout). Prints one JSON line; not
 * part of `npm run bench` (no page load alongside).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announceSnapshot } from '../src/site/data/snapshot-channel.ts';
import { startSubscriptions } from '../src/subscribers/service.ts';
import { SubscriberStore } from '../src/subscribers/store.ts';
import { newSigningSecret } from '../src/subscribers/webhook-signing.ts';
import { incident, snapshot } from '../test/site/view/fixtures.ts';

const SUBSCRIBERS = Number(process.argv[2] ?? 1_000);
const HOSTS = 8;

const dir = mkdtempSync(join(tmpdir(), 'pl-bench-hooks-'));
const servers: http.Server[] = [];
let delivered = 0;
async function receiver(host: string, hang: boolean): Promise<string> {
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      if (hang) return;
      delivered += 1;
      res.writeHead(204).end();
    });
  });
  server.listen(0, host);
  await once(server, 'listening');
  servers.push(server);
  return `http://${host}:${(server.address() as AddressInfo).port}/hook`;
}

const urls: string[] = [];
for (let h = 1; h <= HOSTS; h += 1) urls.push(await receiver(`127.0.0.${h}`, false));
const hanging = await receiver('127.0.0.9', true);

const path = join(dir, 's.db');
const store = await SubscriberStore.open(path);
const now = Date.now();
for (let i = 0; i < SUBSCRIBERS; i += 1) {
  const url = `${urls[i % HOSTS]}/${i}`;
  const id = (await store.subscribeEndpoint('p1', { channel: 'webhook', url, host: new URL(url).hostname, signingSecret: newSigningSecret(), contactEmail: null }, [], now, null))!;
  await store.confirmEndpoint(id, now);
}
const slow = (await store.subscribeEndpoint('p1', { channel: 'webhook', url: hanging, host: '127.0.0.9', signingSecret: newSigningSecret(), contactEmail: null }, [], now, null))!;
await store.confirmEndpoint(slow, now);
await store.close();

const service = await startSubscriptions({ database: path, smtp: { host: '127.0.0.1', port: 9 }, links: { origin: 'https://status.example.com', configured: true }, webhooks: { allowPrivate: true } });
announceSnapshot('loaded', snapshot({ incidents: [], fetchedAt: new Date() }));
await new Promise((resolve) => setTimeout(resolve, 200));
const started = performance.now();
announceSnapshot('loaded', snapshot({ incidents: [incident('i1')], fetchedAt: new Date(Date.now() + 1_000) }));
while (delivered < SUBSCRIBERS) {
  if (performance.now() - started > 300_000) throw new Error(`only ${delivered} of ${SUBSCRIBERS} delivered in 5 minutes`);
  await new Promise((resolve) => setTimeout(resolve, 10));
}
const ms = Math.round(performance.now() - started);
console.log(JSON.stringify({ subscribers: SUBSCRIBERS, hosts: HOSTS, hangingReceivers: 1, fanOutMs: ms, perSecond: Math.round((SUBSCRIBERS * 1000) / ms) }));
await service.close();
for (const server of servers) {
  server.closeAllConnections();
  server.close();
}
rmSync(dir, { recursive: true, force: true });

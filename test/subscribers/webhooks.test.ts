/**
 * Webhook subscriptions end to end on loopback: the form, the signed ping, the durable outbox
 * delivering Statuspage-shaped payloads that the `standardwebhooks` library verifies, retries,
 * 410, a receiver that never answers, and the egress rule at the form and at connect time.
 * Receivers are this test's own HTTP servers; the egress rule is relaxed for them only where said.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { announceSnapshot } from '../../src/site/data/snapshot-channel.ts';
import { startSubscriptions, type RunningSubscriptions, type WebhookOptions } from '../../src/subscribers/service.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import { incident, monitor, now, snapshot } from '../site/view/fixtures.ts';

interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

interface Receiver {
  url: string;
  received: Received[];
  /** Decides each answer: a status, or 'hang' (never answer). */
  answer: (request: Received, index: number) => number | 'hang';
  /** When a hanging request's connection was closed by the sender (its timeout). */
  closedAt: number[];
  server: http.Server;
}

const servers: http.Server[] = [];
const running: RunningSubscriptions[] = [];
let dir = '';

afterEach(async () => {
  for (const service of running.splice(0)) await service.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function receiver(host = '127.0.0.1', answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const self: Receiver = { url: '', received: [], answer, closedAt: [], server: http.createServer() };
  self.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      self.received.push(entry);
      const decided = self.answer(entry, self.received.length - 1);
      if (decided === 'hang') {
        req.socket.on('close', () => self.closedAt.push(Date.now()));
        return;
      }
      res.writeHead(decided, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  self.server.listen(0, host);
  await once(self.server, 'listening');
  servers.push(self.server);
  self.url = `http://${host}:${(self.server.address() as AddressInfo).port}/hook`;
  return self;
}

async function start(webhooks: WebhookOptions): Promise<{ service: RunningSubscriptions; path: string }> {
  dir = mkdtempSync(join(tmpdir(), 'pl-hooks-'));
  const path = join(dir, 's.db');
  const service = await startSubscriptions({
    database: path,
    smtp: { host: '127.0.0.1', port: 9, secure: false },
    links: { origin: 'https://status.example.com', configured: true },
    webhooks: { retry: { baseMs: 100, maxMs: 400 }, ...webhooks },
  });
  running.push(service);
  return { service, path };
}

async function post(service: RunningSubscriptions, body: string) {
  const answer = await request(`${service.origin}/subscribe`, { method: 'POST', body, headers: { host: 'status.acme.test', 'content-type': 'application/x-www-form-urlencoded', 'x-porchlight-client': '192.0.2.1' } });
  return { status: answer.statusCode, text: await answer.body.text() };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const at = (minutes: number, extra: Parameters<typeof snapshot>[0] = {}) => snapshot({ fetchedAt: later(minutes), ...extra });

/** Subscribes `url` through the form; returns the secret shown once. */
async function subscribe(service: RunningSubscriptions, url: string, extra = ''): Promise<string> {
  const answer = await post(service, `webhook_url=${encodeURIComponent(url)}&locale=en${extra}`);
  expect(answer.status).toBe(200);
  const secret = /<code data-secret[^>]*>(whsec_[^<]+)<\/code>/.exec(answer.text)?.[1];
  expect(secret).toBeDefined();
  return secret!;
}

const events = (received: readonly Received[]) => received.map((entry) => (JSON.parse(entry.body) as { event_type: string }).event_type);
const resolvedI1 = incident('i1', { status: 'resolved', resolvedAt: later(3).toISOString(), updates: [...incident('i1').updates, { id: 'i1-u3', status: 'resolved', message: 'Fixed', createdAt: later(3).toISOString() }] });
const updatedI1 = incident('i1', { updates: [...incident('i1').updates, { id: 'i1-u3', status: 'monitoring', message: 'Watching', createdAt: later(2).toISOString() }] });

describe('webhook subscriptions', () => {
  it('a signed ping confirms; incident opened, updated, resolved and a component change each arrive once, verified and shaped like Statuspage\'s', async () => {
    const hook = await receiver();
    const { service, path } = await start({ allowPrivate: true });
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const secret = await subscribe(service, hook.url);
    const verifier = new Webhook(secret);
    expect(hook.received).toHaveLength(1);
    const ping = verifier.verify(hook.received[0]!.body, hook.received[0]!.headers) as { event_type: string; meta: { unsubscribe: string } };
    expect(ping.event_type).toBe('ping');
    expect(ping.meta.unsubscribe).toMatch(/^https:\/\/status\.acme\.test\/subscribe\/manage\?t=/);

    announceSnapshot('loaded', at(1, { incidents: [incident('i1')] }));
    announceSnapshot('loaded', at(2, { incidents: [updatedI1] }));
    announceSnapshot('loaded', at(3, { incidents: [resolvedI1] }));
    announceSnapshot('loaded', at(4, { incidents: [resolvedI1], monitors: [monitor('m1', 'up'), monitor('m2', 'up', { lastCheckedAt: later(4).toISOString() })] }));
    await until(() => hook.received.length >= 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const deliveries = hook.received.slice(1);
    expect(events(deliveries)).toEqual(['incident.created', 'incident.updated', 'incident.resolved', 'component.updated']);
    const bodies = deliveries.map((entry) => verifier.verify(entry.body, entry.headers) as Record<string, unknown>);
    for (const body of bodies) expect(Object.keys(body)[0]).toBe('meta');
    expect(bodies[0]).toMatchObject({ page: { id: 'p1' }, incident: { id: 'i1', status: 'identified', shortlink: 'https://status.acme.test/incidents/i1/' } });
    expect(bodies[1]).toMatchObject({ incident: { incident_updates: [{ id: 'i1-u3', body: 'Watching' }, {}, {}] } });
    expect(bodies[2]).toMatchObject({ incident: { status: 'resolved' } });
    expect(bodies[3]).toMatchObject({ component_update: { component_id: 'm2', old_status: 'major_outage', new_status: 'operational' }, component: { id: 'm2', name: 'Database', status: 'operational' } });
    expect(new Set(deliveries.map((entry) => entry.headers['webhook-id'])).size).toBe(4);

    // The unsubscribe URL in every delivery works for a machine: one POST.
    const unsubscribe = (bodies[3] as { meta: { unsubscribe: string } }).meta.unsubscribe;
    const url = new URL(unsubscribe);
    const gone = await request(`${service.origin}${url.pathname}${url.search}`, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { host: url.host, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(gone.statusCode).toBe(200);
    await gone.body.dump();
    const store = await SubscriberStore.open(path);
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it('a receiver answering 503 twice then 200 gets each event once, in order; the webhook-id stays the same across retries', async () => {
    const hook = await receiver('127.0.0.1', (_request, index) => (index === 1 || index === 2 ? 503 : 200));
    const { service } = await start({ allowPrivate: true });
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await subscribe(service, hook.url);
    announceSnapshot('loaded', at(1, { incidents: [incident('i1')] }));
    announceSnapshot('loaded', at(2, { incidents: [updatedI1] }));
    await until(() => hook.received.length >= 5);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events(hook.received.slice(1))).toEqual(['incident.created', 'incident.created', 'incident.created', 'incident.updated']);
    const ids = hook.received.slice(1).map((entry) => entry.headers['webhook-id']);
    expect(ids[0]).toBe(ids[2]);
    expect(ids[3]).not.toBe(ids[0]);
  });

  it('410 Gone unsubscribes the receiver', async () => {
    const hook = await receiver('127.0.0.1', (_request, index) => (index === 0 ? 200 : 410));
    const { service, path } = await start({ allowPrivate: true });
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await subscribe(service, hook.url);
    announceSnapshot('loaded', at(1, { incidents: [incident('i1')] }));
    const store = await SubscriberStore.open(path);
    await until(async () => (await store.list()).length === 0);
    announceSnapshot('loaded', at(2, { incidents: [updatedI1] }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.received).toHaveLength(2);
    await store.close();
  });

  it('a receiver that never answers does not hold up another\'s delivery (it is cut off at its timeout)', async () => {
    const slow = await receiver('127.0.0.2', (_request, index) => (index === 0 ? 200 : 'hang'));
    const fast = await receiver('127.0.0.1');
    const { service } = await start({ allowPrivate: true, timeoutMs: 4_000 });
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await subscribe(service, slow.url);
    await subscribe(service, fast.url);
    announceSnapshot('loaded', at(1, { incidents: [incident('i1')] }));
    await until(() => fast.received.length === 2 && slow.received.length === 2);
    // The fast one was served while the slow one's request was still open.
    expect(slow.closedAt).toEqual([]);
    await until(() => slow.closedAt.length === 1, 15_000);
    expect(slow.closedAt[0]! - slow.received[1]!.at).toBeGreaterThanOrEqual(3_000);
    expect(fast.received[1]!.at).toBeLessThan(slow.closedAt[0]!);
  });

  it('a private address is refused at the form (a literal, localhost, a name resolving to one) and at connect time; nothing is stored', async () => {
    const target = await receiver();
    const port = new URL(target.url).port;
    const resolver = async (host: string) => {
      if (host === 'rebind.example') return [{ address: '127.0.0.1', family: 4 as const }];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const { service, path } = await start({ allowPrivate: false, resolver });
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = 'That address is not public';
    for (const url of [`https://127.0.0.1:${port}/hook`, `https://localhost:${port}/hook`, `https://rebind.example:${port}/hook`, 'https://[::1]/hook', 'https://169.254.169.254/latest']) {
      const answer = await post(service, `webhook_url=${encodeURIComponent(url)}`);
      expect(answer.status, url).toBe(400);
      expect(answer.text, url).toContain(refused);
    }
    expect((await post(service, `webhook_url=${encodeURIComponent(target.url)}`)).text).toContain('must start with https://');
    expect((await post(service, `webhook_url=${encodeURIComponent('https://u:p@hooks.example/')}`)).text).toContain('user name or password');
    expect((await post(service, `webhook_url=${encodeURIComponent('https://nowhere.example/')}`)).text).toContain('does not resolve');
    expect((await post(service, `webhook_url=${encodeURIComponent('https://rebind.example/')}&locale=de`)).text).toContain('Diese Adresse ist nicht öffentlich');
    const store = await SubscriberStore.open(path);
    expect(await store.list()).toEqual([]);

    // A subscriber whose name later resolves to a private address (DNS rebinding): refused when connecting.
    const id = await store.subscribeEndpoint('p1', { channel: 'webhook', url: `https://rebind.example:${port}/hook`, host: 'rebind.example', signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', contactEmail: null }, [], Date.now(), null);
    await store.confirmEndpoint(id!, Date.now());
    announceSnapshot('loaded', at(1, { incidents: [incident('i1')] }));
    await until(async () => (await store.stats()).outbox.failed === 1);
    expect(target.received).toEqual([]);
    await store.close();
  });

  it('Slack, Discord and Teams channels: confirmed by a first message, then each event in the service\'s format, in the subscriber\'s language, with the link and an unsubscribe link', async () => {
    const chat = await receiver();
    const port = new URL(chat.url).port;
    // The services' hosts, resolved to this test's receiver (the egress rule relaxed for it).
    const resolver = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const { service } = await start({ allowPrivate: true, resolver });
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const urls = [`http://hooks.slack.com:${port}/services/T0/B0/x`, `http://discord.com:${port}/api/webhooks/1/abc`, `http://acme.webhook.office.com:${port}/webhookb2/x`];
    for (const url of urls) {
      const answer = await post(service, `webhook_url=${encodeURIComponent(url)}&locale=de`);
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain('whsec_');
      expect(answer.text).toContain('Der Kanal hat seine erste Nachricht erhalten');
    }
    expect(chat.received).toHaveLength(3);
    expect(chat.received.every((entry) => entry.headers['webhook-signature'] === undefined)).toBe(true);
    announceSnapshot('loaded', at(1, { incidents: [incident('i1')] }));
    await until(() => chat.received.length === 6);
    const byHost = (host: string) => chat.received.filter((entry) => entry.headers.host?.startsWith(host)).map((entry) => entry.body);
    const [slackFirst, slack] = byHost('hooks.slack.com');
    expect(slackFirst).toContain('Jede Nachricht enthält einen Link zum Abbestellen');
    const slackBody = JSON.parse(slack!) as { blocks: { type: string }[] };
    expect(slackBody.blocks.map((block) => block.type)).toEqual(['header', 'section', 'context']);
    expect(slack).toContain('Neue Störung');
    expect(slack).toContain('Status: Ursache erkannt');
    expect(slack).toContain('https://status.acme.test/de/incidents/i1/');
    expect(slack).toMatch(/subscribe\/manage\?t=[^|]+&locale=de\|Abbestellen/);
    const discord = JSON.parse(byHost('discord.com')[1]!) as { embeds: { url: string; description: string }[] };
    expect(discord.embeds[0]!.url).toBe('https://status.acme.test/de/incidents/i1/');
    expect(discord.embeds[0]!.description).toContain('subscribe/manage?t=');
    const teams = byHost('acme.webhook.office.com')[1]!;
    expect(teams).toContain('application/vnd.microsoft.card.adaptive');
    expect(teams).toContain('Neue Störung');
  });
});

/**
 * The subscriptions when their store is unreachable (PostgreSQL stopped or failing over): the
 * routes answer 503 with Retry-After and say that nothing was saved (HTML and JSON), and the
 * outbox sender retries after a growing delay instead of stopping for good.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/store/errors.ts';
import { DEFAULT_LANGUAGE_SETTINGS } from '../../src/site/i18n/settings.ts';
import { OutboxSender, type StoredEvent } from '../../src/subscribers/outbox-sender.ts';
import { createRoutes } from '../../src/subscribers/routes.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import type { MailTransport } from '../../src/subscribers/mail-transport.ts';
import { snapshot } from '../site/view/fixtures.ts';

/** The senders' settings in these tests: short retries, no pace. */
const SENDER_SETTINGS = { concurrency: 4, retryBaseMs: 100, retryMaxMs: 1_000, maxAttempts: 3, maxPerSecond: 0, manageUrl: () => 'https://status.example.com/manage' };

const away = () => Promise.reject(new StoreUnavailableError('the PostgreSQL server cannot be reached (ECONNREFUSED)', 7));
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function routesOn(store: Partial<SubscriberStore>): Promise<string> {
  const routes = createRoutes({ store: store as SubscriberStore, snapshot: () => snapshot(), sendConfirmation: () => undefined, languages: DEFAULT_LANGUAGE_SETTINGS });
  const server = http.createServer((req, res) => void routes(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the subscription routes with the store unreachable', () => {
  it('answer the form and a link 503 with Retry-After and a clear page', async () => {
    const origin = await routesOn({ subscribe: away, confirmable: away });
    const answer = await request(`${origin}/subscribe`, { method: 'POST', body: 'email=a%40example.com', headers: { host: 'status.acme.test', 'content-type': 'application/x-www-form-urlencoded' } });
    const text = await answer.body.text();
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('7');
    expect(answer.headers['cache-control']).toContain('no-store');
    expect(text).toContain('Subscriptions are briefly unavailable, and nothing was saved.');
    expect(text).not.toMatch(/ECONNREFUSED|PostgreSQL|StoreUnavailableError/);
    const link = await request(`${origin}/subscribe/confirm?t=${'a'.repeat(43)}`, { headers: { host: 'status.acme.test' } });
    await link.body.text();
    expect([link.statusCode, link.headers['retry-after']]).toEqual([503, '7']);
  });

  it('answer a script asking for JSON with problem "unavailable"', async () => {
    const origin = await routesOn({ subscribe: away });
    const answer = await request(`${origin}/subscribe`, { method: 'POST', body: 'email=a%40example.com', headers: { host: 'status.acme.test', accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('7');
    expect(await answer.body.json()).toEqual({ ok: false, problem: 'unavailable', message: 'Subscriptions are briefly unavailable, and nothing was saved. Go back and try again in a minute.' });
  });

  it('answer 503 with Retry-After before the first data load too (a replica just started)', async () => {
    const routes = createRoutes({ store: {} as SubscriberStore, snapshot: () => null, sendConfirmation: () => undefined, languages: DEFAULT_LANGUAGE_SETTINGS });
    const server = http.createServer((req, res) => void routes(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const answer = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/subscribe`, { method: 'POST', body: 'email=a%40example.com', headers: { host: 'status.acme.test', 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await answer.body.text()).toContain('Subscriptions are starting up.');
    expect([answer.statusCode, answer.headers['retry-after']]).toEqual([503, '5']);
  });

  it('let any other failure through (the service answers it 500)', async () => {
    const routes = createRoutes({ store: { subscribe: () => Promise.reject(new Error('a bug')) } as unknown as SubscriberStore, snapshot: () => snapshot(), sendConfirmation: () => undefined, languages: DEFAULT_LANGUAGE_SETTINGS });
    const server = http.createServer((req, res) => {
      routes(req, res).catch(() => {
        res.writeHead(500);
        res.end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const answer = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/subscribe`, { method: 'POST', body: 'email=a%40example.com', headers: { host: 'status.acme.test', 'content-type': 'application/x-www-form-urlencoded' } });
    await answer.body.text();
    expect(answer.statusCode).toBe(500);
  });
});

describe('the outbox sender with the store unreachable', () => {
  it('tries again after a growing delay and resumes once the store answers', async () => {
    let claims = 0;
    const store = {
      claimDue: async () => {
        claims += 1;
        if (claims <= 3) return away();
        return [];
      },
      nextDue: async () => null,
    } as unknown as SubscriberStore;
    const transport: MailTransport = { send: () => Promise.reject(new Error('nothing to send')), close: () => undefined } as unknown as MailTransport;
    const delays: number[] = [];
    const sender = new OutboxSender(store, transport, {
      ...SENDER_SETTINGS,
      messageId: () => '<id@example.com>',
      onRoundFailed: (error, retryInMs) => {
        expect(error).toBeInstanceOf(StoreUnavailableError);
        delays.push(retryInMs);
      },
    });
    sender.wake();
    const deadline = Date.now() + 15_000;
    while (claims < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    await sender.close();
    expect(claims).toBe(4);
    expect(delays).toEqual([500, 1_000, 2_000]);
  });

  /**
   * Issue 29: a round that failed after claiming (the store unreachable when a mail was to be
   * marked started) left its mails `sending`, and the lease keeper renewed every claim of the
   * store, so they were never sent while the process lived. Now the failed mails are given back
   * (or, when even that fails, no longer renewed and settled by their lease), and go out in a
   * later round.
   */
  it('gives back the claims of a failed round, so their mails go out in a later one', async () => {
    const store = await SubscriberStore.open(':memory:', { leaseMs: 1_000 });
    for (let i = 0; i < 4; i += 1) {
      const request = (await store.subscribe('page_1', { address: `s${i}@example.com`, key: `s${i}@example.com` }, [], Date.now()))!;
      await store.confirm(request.token, Date.now());
    }
    const mail = { pageName: 'Acme', subject: 'Outage', text: 'Down.', html: '<p>Down.</p>', brandColor: '#000000', logoUrl: null, pageUrl: 'https://status.example.com/acme', locale: 'en', manageBase: 'https://status.example.com/acme/subscribe/manage' };
    const event: StoredEvent = { defaultLocale: 'en', mails: { en: mail } };
    expect(await store.recordEvent('page_1', 'incident:1:created', JSON.stringify(event), new Set(['m']), Date.now())).toBe(4);
    // The store goes away for the first two marks (and for giving the first one back).
    let failures = 2;
    const flaky = Object.create(store) as SubscriberStore;
    flaky.markStarted = async (key, now) => (failures-- > 0 ? away() : store.markStarted(key, now));
    let releases = 0;
    flaky.release = async (key, now) => (releases++ === 0 ? away() : store.release(key, now));
    const sent: string[] = [];
    const transport = { send: async (message: { to: string }) => { sent.push(message.to); return { outcome: 'sent' as const }; }, close: () => undefined } as unknown as MailTransport;
    let failedRounds = 0;
    const sender = new OutboxSender(flaky, transport, {
      ...SENDER_SETTINGS,
      messageId: (due) => `<${due.eventId}.${due.subscriberId}@example.com>`,
      onRoundFailed: () => (failedRounds += 1),
    });
    try {
      sender.wake();
      const deadline = Date.now() + 15_000;
      while (sent.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(failedRounds).toBe(1);
      // Three sent: two in the failed round, one given back and sent by the next; none twice.
      expect(sent).toHaveLength(3);
      expect(new Set(sent).size).toBe(3);
      // The fourth could not be given back: claimed, but no longer held, so the lease keeper lets it run out.
      expect(sender.heldClaims()).toEqual([]);
      expect((await store.stats()).outbox).toMatchObject({ sent: 3, sending: 1 });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await store.reclaimExpired(Date.now())).toEqual({ requeued: 1, inDoubt: 0 });
      sender.wake();
      while (sent.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(new Set(sent).size).toBe(4);
    } finally {
      await sender.close();
      await store.close();
    }
  });
});

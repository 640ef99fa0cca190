/**
 * The subscriptions service against a real SMTP server on loopback: snapshots arrive over the
 * same channel the site uses, mails are read back with mailparser, and restarts reopen the same
 * store file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { announceSnapshot } from '../../src/site/data/snapshot-channel.ts';
import { startSubscriptions, type RunningSubscriptions } from '../../src/subscribers/service.ts';
import { SubscriberStore } from '../../src/subscribers/store.ts';
import type { StoreLocation } from '../../src/store/location.ts';
import { DIALECTS, useDialects } from '../support/postgres.ts';
import { DEFAULT_LANGUAGE_SETTINGS, type LanguageSettings } from '../../src/site/i18n/settings.ts';
import { ar } from '../../src/site/i18n/messages/ar.ts';
import { de } from '../../src/site/i18n/messages/de.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../e2e/support/smtp-sink.ts';
import { incident, now, snapshot } from '../site/view/fixtures.ts';

let sink: SmtpSink;
let dir: string;
// The service logs each event at info and each recovery at warn; these tests read the store and the
// SMTP sink instead, and a quiet run keeps real failures readable.
process.env.LOG_LEVEL = 'silent';

const running: RunningSubscriptions[] = [];
const dialects = useDialects();

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.stop();
});
afterEach(async () => {
  for (const service of running.splice(0)) await service.close();
  sink.mails.length = 0;
  sink.reject.clear();
  sink.busy = false;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function start(path: string | StoreLocation, retryBaseMs = 100, languages?: LanguageSettings): Promise<RunningSubscriptions> {
  const service = await startSubscriptions({
    ...(languages && { languages }),
    database: path,
    smtp: { host: '127.0.0.1', port: sink.port, secure: false, from: 'Status <status@example.com>' },
    links: { origin: 'https://status.example.com', configured: true },
    retryBaseMs,
  });
  running.push(service);
  return service;
}

const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const at = (minutes: number, extra: Parameters<typeof snapshot>[0] = {}) => snapshot({ fetchedAt: later(minutes), ...extra });

/** Posts a form as a browser would, on the page's custom domain (the fixture page has one). */
async function post(service: RunningSubscriptions, path: string, body: string, client = '192.0.2.1') {
  const answer = await request(`${service.origin}${path}`, { method: 'POST', body, headers: { host: 'status.acme.test', 'content-type': 'application/x-www-form-urlencoded', 'x-porchlight-client': client } });
  return { status: answer.statusCode, text: await answer.body.text() };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function subscribeAndConfirm(service: RunningSubscriptions, email: string): Promise<void> {
  expect((await post(service, '/subscribe', `email=${encodeURIComponent(email)}`)).status).toBe(200);
  await until(() => sink.mailsTo(email).length === 1);
  const link = new URL(linkIn(sink.mailsTo(email)[0]!, '/subscribe/confirm'));
  const confirmed = await post(service, '/subscribe/confirm', `t=${link.searchParams.get('t')}`);
  expect(confirmed.text).toContain('You are subscribed');
}

describe('subscriptions service', () => {
  it('answers the same page for a new, a pending and a confirmed address, and mails one confirmation', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const service = await start(join(dir, 's.db'));
    announceSnapshot('loaded', at(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const first = await post(service, '/subscribe', 'email=alice%40example.com');
    const pending = await post(service, '/subscribe', 'email=ALICE%40example.com');
    expect(first.status).toBe(200);
    expect(pending).toEqual(first);
    await until(() => sink.mails.length === 1);
    const link = new URL(linkIn(sink.mails[0]!, '/subscribe/confirm'));
    expect(link.origin).toBe('https://status.acme.test');
    // A GET (a mail scanner) changes nothing; the button's POST confirms, once.
    const view = await request(`${service.origin}/subscribe/confirm${link.search}`, { headers: { host: 'status.acme.test' } });
    expect(await view.body.text()).toContain('<form method="post" action="confirm">');
    const confirmedAnswer = await post(service, '/subscribe/confirm', `t=${link.searchParams.get('t')}`);
    expect(confirmedAnswer.text).toContain('You are subscribed');
    expect((await post(service, '/subscribe/confirm', `t=${link.searchParams.get('t')}`)).status).toBe(410);
    expect(await post(service, '/subscribe', 'email=alice%40example.com', '192.0.2.2')).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink.mails).toHaveLength(1);
  });

  it('1000 posts from one client mail a victim at most once and are refused past the limit', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const service = await start(join(dir, 's.db'));
    announceSnapshot('loaded', at(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(service, '/subscribe', `email=victim${i % 3 === 0 ? '' : i}%40example.com`)));
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(990);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.mailsTo('victim@example.com').length).toBeLessThanOrEqual(1);
    expect(sink.mails.length).toBeLessThanOrEqual(10);
  });

  it('mails each event once; the first snapshot after a start mails nothing; a restart between the event and its sending neither repeats nor loses', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const path = join(dir, 's.db');
    let service = await start(path);
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const name of ['a', 'b', 'c']) await subscribeAndConfirm(service, `${name}@example.com`);
    sink.mails.length = 0;

    // SMTP refuses for now: the event is recorded, its mails wait in the outbox.
    sink.busy = true;
    announceSnapshot('loaded', at(1));
    const store = () => SubscriberStore.open(path);
    await until(async () => {
      const s = await store();
      const waiting = (await s.stats()).outbox.pending;
      await s.close();
      return waiting === 3;
    });
    await service.close();
    running.length = 0;
    sink.busy = false;

    // A new process: its first snapshot (the same data plus nothing new) is only a baseline,
    // and the outbox left behind is sent.
    service = await start(path);
    announceSnapshot('loaded', at(2));
    await until(() => sink.mails.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.mails.map((mail) => mail.to).sort()).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect(sink.mails.every((mail) => mail.parsed.subject === '[Acme Status] New incident: Incident i1')).toBe(true);

    // The same event again (a flapping load) mails nobody twice.
    announceSnapshot('loaded', at(3, { incidents: [] }));
    announceSnapshot('loaded', at(4));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.mails).toHaveLength(3);

    // Every mail can be left in one click (RFC 8058): a POST of List-Unsubscribe=One-Click.
    const mail = sink.mailsTo('a@example.com')[0]!;
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>/m.exec(head)?.[1];
    expect(unsubscribe).toMatch(/^https:\/\/status\.acme\.test\/subscribe\/manage\?t=/);
    const url = new URL(unsubscribe!);
    expect((await post(service, `${url.pathname}${url.search}`, 'List-Unsubscribe=One-Click')).text).toContain('You are unsubscribed');
    const base = incident('i1');
    announceSnapshot('loaded', at(5, { incidents: [{ ...base, updates: [...base.updates, { id: 'u9', status: 'monitoring', message: 'Better', createdAt: later(5).toISOString() }] }] }));
    await until(() => sink.mails.length === 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.mailsTo('a@example.com')).toHaveLength(1);
  });

  it('a change made while Porchlight was stopped is mailed once on the next start, compared with what the last run saw', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const path = join(dir, 's.db');
    let service = await start(path);
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await subscribeAndConfirm(service, 'away@example.com');
    sink.mails.length = 0;
    await service.close();
    running.length = 0;

    // An incident opened while it was stopped: the next start's first load is news.
    service = await start(path);
    announceSnapshot('loaded', at(1));
    await until(() => sink.mailsTo('away@example.com').length === 1);
    expect(sink.mailsTo('away@example.com')[0]!.parsed.subject).toBe('[Acme Status] New incident: Incident i1');

    // Once only: another start with the same data mails nothing more.
    await service.close();
    running.length = 0;
    service = await start(path);
    announceSnapshot('loaded', at(2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.mailsTo('away@example.com')).toHaveLength(1);
  });

  it('takes the one-click body as multipart/form-data too (RFC 8058 prefers it); a GET of the link changes nothing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const path = join(dir, 's.db');
    const service = await start(path);
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await subscribeAndConfirm(service, 'multi@example.com');
    announceSnapshot('loaded', at(1));
    await until(() => sink.mailsTo('multi@example.com').length === 2);
    const url = new URL(linkIn(sink.mailsTo('multi@example.com')[1]!, '/subscribe/manage'));
    const view = await request(`${service.origin}${url.pathname}${url.search}`, { headers: { host: 'status.acme.test' } });
    expect(await view.body.text()).toContain('Unsubscribe');
    const boundary = '----porchlight';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const answer = await request(`${service.origin}${url.pathname}${url.search}`, { method: 'POST', body, headers: { host: 'status.acme.test', 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-porchlight-client': '192.0.2.9' } });
    expect(await answer.body.text()).toContain('You are unsubscribed');
    const store = await SubscriberStore.open(path);
    expect(await store.find('multi@example.com')).toEqual([]);
    await store.close();
  });

  it('SMTP down: the mails wait and arrive once it is back; 5xx marks an address bouncing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const path = join(dir, 's.db');
    const service = await start(path, 200);
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await subscribeAndConfirm(service, 'ok@example.com');
    await subscribeAndConfirm(service, 'gone@example.com');
    sink.mails.length = 0;
    sink.reject.add('gone@example.com');
    await sink.stop();
    announceSnapshot('loaded', at(1));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sink.mails).toHaveLength(0);
    await sink.start();
    await until(() => sink.mailsTo('ok@example.com').length === 1, 10_000);
    const base = incident('i1');
    for (let i = 0; i < 3; i += 1) {
      base.updates = [...base.updates, { id: `more${i}`, status: 'identified', message: `Update ${i}`, createdAt: later(2 + i).toISOString() }];
      announceSnapshot('loaded', at(2 + i, { incidents: [structuredClone(base)] }));
      await until(() => sink.mailsTo('ok@example.com').length === 2 + i, 10_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const store = await SubscriberStore.open(path);
    expect((await store.stats()).subscribers).toMatchObject({ confirmed: 1, bouncing: 1 });
    await store.close();
  });

  it('speaks the language of the page variant subscribed from: answers, confirmation and event mails; Subject RFC 2047-encoded', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const path = join(dir, 's.db');
    // The page offers English (its default), German and Arabic; Japanese is shipped but not offered.
    const languages: LanguageSettings = { ...DEFAULT_LANGUAGE_SETTINGS, siteLocales: ['en', 'de', 'ar'] };
    const service = await start(path, 100, languages);
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 50));

    const german = await post(service, '/subscribe', 'email=de%40example.com&locale=de');
    expect(german.text).toContain('<html lang="de" dir="ltr">');
    expect(german.text).toContain(de['subscribe.checkInboxTitle']);
    expect(german.text).toContain('<a href="/de/">');
    expect((await post(service, '/subscribe', 'email=ar%40example.com&locale=ar')).text).toContain('<html lang="ar" dir="rtl">');
    // Not offered, or not a language: the page's default.
    expect((await post(service, '/subscribe', 'email=ja%40example.com&locale=ja')).text).toContain('<html lang="en" dir="ltr">');
    expect((await post(service, '/subscribe', 'email=xx%40example.com&locale=%0D%0AX-Evil%3A%201')).text).toContain('Check your inbox');
    await until(() => sink.mails.length === 4);

    const arabicConfirmation = sink.mailsTo('ar@example.com')[0]!;
    expect(arabicConfirmation.parsed.subject).toBe(ar['subscribe.confirmSubject'].replace('{page}', 'Acme Status'));
    // RFC 2047: the header itself is ASCII, the words encoded; no header was added.
    const head = arabicConfirmation.raw.split(/\r?\n\r?\n/)[0]!;
    expect(head).toMatch(/^[\x20-\x7e\r\n\t]*$/);
    expect(head).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/m);
    expect(head).toMatch(/^Content-Language: ar\r?$/m);
    expect(sink.mailsTo('xx@example.com')[0]!.raw).not.toMatch(/^X-Evil/m);
    expect(sink.mailsTo('ja@example.com')[0]!.parsed.subject).toBe('Confirm your subscription to Acme Status');

    for (const [email, locale] of [['de@example.com', 'de'], ['ar@example.com', 'ar'], ['ja@example.com', 'en']] as const) {
      const link = new URL(linkIn(sink.mailsTo(email)[0]!, '/subscribe/confirm'));
      expect(link.searchParams.get('locale')).toBe(locale);
      const view = await request(`${service.origin}/subscribe/confirm?t=${link.searchParams.get('t')}`, { headers: { host: 'status.acme.test' } });
      // The link's language comes from the subscriber, even without the link's locale.
      expect(await view.body.text()).toContain(`<html lang="${locale}"`);
      expect((await post(service, '/subscribe/confirm', `t=${link.searchParams.get('t')}`)).text).toContain(`<html lang="${locale}"`);
    }
    sink.mails.length = 0;

    announceSnapshot('loaded', at(1));
    await until(() => sink.mails.length === 3);
    const event = (email: string) => sink.mailsTo(email)[0]!;
    expect(event('de@example.com').parsed.subject).toBe('[Acme Status] Neue Störung: Incident i1');
    expect(event('de@example.com').parsed.text).toContain('https://status.acme.test/de/incidents/i1/');
    expect(event('ar@example.com').parsed.subject).toBe('[Acme Status] حادث جديد: Incident i1');
    expect(event('ar@example.com').parsed.html).toContain('<html lang="ar" dir="rtl">');
    expect(event('ja@example.com').parsed.subject).toBe('[Acme Status] New incident: Incident i1');
    expect(event('ja@example.com').parsed.text).toContain('https://status.acme.test/incidents/i1/');

    // After unsubscribing, the old link still answers in the subscriber's language (the link names it).
    const manage = new URL(linkIn(event('ar@example.com'), '/subscribe/manage'));
    expect(manage.searchParams.get('locale')).toBe('ar');
    expect((await post(service, `${manage.pathname}${manage.search}`, 'List-Unsubscribe=One-Click')).text).toContain(ar['subscribe.unsubscribedTitle']);
    const gone = await request(`${service.origin}${manage.pathname}${manage.search}`, { headers: { host: 'status.acme.test' } });
    expect(gone.statusCode).toBe(410);
    expect(await gone.body.text()).toContain(ar['subscribe.linkInvalidTitle']);
  });
});

describe.runIf(DIALECTS.includes('postgres'))('subscriptions service: two instances on one PostgreSQL database', () => {
  it('a link mailed by one works on the other, an event seen by both mails each subscriber once, and one-click unsubscribe works on either', async () => {
    const place = dialects.location('postgres');
    const [first, second] = await Promise.all([start(place), start(place)]);
    announceSnapshot('loaded', at(0, { incidents: [] }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const email of ['a@example.com', 'b@example.com']) {
      expect((await post(first, '/subscribe', `email=${encodeURIComponent(email)}`)).status).toBe(200);
      await until(() => sink.mailsTo(email).length === 1);
      const link = new URL(linkIn(sink.mailsTo(email)[0]!, '/subscribe/confirm'));
      // Confirmed on the other instance: one store, one token.
      expect((await post(second, '/subscribe/confirm', `t=${link.searchParams.get('t')}`)).text).toContain('You are subscribed');
    }
    sink.mails.length = 0;

    // Both instances see the same new incident: recorded once, each subscriber mailed once.
    announceSnapshot('loaded', at(1));
    await until(() => sink.mails.length === 2, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sink.mails.map((mail) => mail.to).sort()).toEqual(['a@example.com', 'b@example.com']);

    const head = sink.mailsTo('a@example.com')[0]!.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    const unsubscribe = new URL(/^List-Unsubscribe: <([^>]+)>/m.exec(head)![1]!);
    expect((await post(second, `${unsubscribe.pathname}${unsubscribe.search}`, 'List-Unsubscribe=One-Click')).text).toContain('You are unsubscribed');
    const store = await SubscriberStore.open(place);
    expect((await store.list()).map((subscriber) => subscriber.email)).toEqual(['b@example.com']);
    await store.close();
  }, 30_000);
});

describe.each(DIALECTS)('subscriptions service: claims of a process that died, on %s', (dialect) => {
  const event = JSON.stringify({
    defaultLocale: 'en',
    mails: { en: { pageName: 'Acme', subject: 'Database latency', text: 'Investigating.', html: '<p>Investigating.</p>', brandColor: '#0055aa', logoUrl: null, pageUrl: 'https://status.example.com/acme/', locale: 'en', manageBase: 'https://status.example.com/acme/subscribe/manage' } },
  });

  it('settles them after their lease, never another live process\'s: the idle claim is mailed once, the one handed over stays unknown', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pl-subs-'));
    const place: StoreLocation = dialect === 'sqlite' ? { dialect: 'sqlite', path: join(dir, 'subscribers.db') } : dialects.location('postgres');
    const dead = await SubscriberStore.open(place, { leaseMs: 300 });
    const live = await SubscriberStore.open(place, { leaseMs: 60_000 });
    for (const address of ['a@example.com', 'b@example.com', 'c@example.com']) {
      const request = (await dead.subscribe('page_1', { address, key: address }, [], Date.now()))!;
      await dead.confirm(request.token, Date.now());
    }
    await dead.recordEvent('page_1', 'incident:1:created', event, new Set(['m']), Date.now());
    const claimed = await dead.claimDue(Date.now(), 2);
    const emailOf = async (mail: { subscriberId: string }) => (await dead.get(mail.subscriberId))!.email;
    // Of the dead one's two claims, one was handed to SMTP, the other never left.
    const [started, idle] = [claimed[0]!, claimed[1]!];
    expect(await dead.markStarted(started, Date.now())).toBe(true);
    const [held] = await live.claimDue(Date.now(), 10);
    const names = { started: await emailOf(started), idle: await emailOf(idle), held: await emailOf(held!) };
    // The dead process says nothing more; a service starts on the same store with the same short lease.
    await dead.close();
    const service = await startSubscriptions({
      database: place,
      smtp: { host: '127.0.0.1', port: sink.port, secure: false, from: 'Status <status@example.com>' },
      links: { origin: 'https://status.example.com', configured: true },
      leaseMs: 300,
    });
    running.push(service);
    const store = await SubscriberStore.open(place);
    await until(async () => (await store.stats()).outbox.unknown === 1 && (await store.stats()).outbox.sent === 1, 10_000);
    expect(sink.mailsTo(names.idle)).toHaveLength(1);
    expect(sink.mailsTo(names.started)).toHaveLength(0);
    // The live process's claim (renewed or not, its lease is a minute) is untouched, and its result counts.
    expect(sink.mailsTo(names.held)).toHaveLength(0);
    expect((await store.stats()).outbox.sending).toBe(1);
    expect(await live.markSent(held!, Date.now())).toBe(true);
    await live.close();
    await store.close();
  }, 30_000);
});

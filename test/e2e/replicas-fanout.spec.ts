/**
 * Two real site replicas (the launcher, `node src/server/main.ts`, over real sockets) sharing one
 * API process and one PostgreSQL (DATABASE_URL). The API's push channel points at replica B
 * (its SITE_PUBLIC_URL, as if the balancer always picked B); replica C hears of changes only
 * through the fan-out: C's data is otherwise read every 300 s (PUSH_POLL_SECONDS) and its pages
 * list every 60 s (CACHE_FRESH_SECONDS), so every bound below (15 s) can only be met by it.
 * Neither sets PUSH_TOKEN: they share the one kept in PostgreSQL. The latency figure itself is a
 * benchmark (bench/fanout-latency.ts), not asserted here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { request } from 'undici';
import { expect, test } from '@playwright/test';
import { freePort } from '../../bench/lib/free-port.ts';
import { createClient, type ApiClient } from '../../src/api/index.ts';
import { isPorchlightPushUrl } from '../../src/contract/porchlight-push.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { linkIn, startSmtpSink, type ReceivedMail, type SmtpSink } from './support/smtp-sink.ts';
import { startPorchlightProcess, type PorchlightProcess } from './support/porchlight-process.ts';
import { DIALECTS, startPostgresCluster, type PostgresCluster } from '../support/postgres.ts';
const BOUND_MS = 15_000;

async function text(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const answer = await request(url, { headers: { 'accept-encoding': 'identity', ...headers } });
  return { status: answer.statusCode, body: await answer.body.text() };
}

/** Milliseconds until `check` holds, polled every 50 ms; fails after BOUND_MS. */
async function within(check: () => Promise<boolean>, what: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > BOUND_MS) throw new Error(`${what}: not within ${BOUND_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function metric(site: PorchlightProcess, line: string): Promise<number> {
  const body = (await text(site.metricsUrl)).body;
  const found = body.split('\n').find((row) => row.startsWith(`${line} `));
  return found === undefined ? Number.NaN : Number(found.slice(line.length + 1));
}

test.describe('two site replicas on one DATABASE_URL', () => {
  test.skip(!DIALECTS.includes('postgres'), 'PostgreSQL 15+ is not installed');
  let cluster: PostgresCluster;
  let databaseUrl: string;
  let dir: string;
  let api: ApiProcess;
  let client: ApiClient;
  let b: PorchlightProcess;
  let c: PorchlightProcess;
  let sink: SmtpSink;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cluster = await startPostgresCluster();
    databaseUrl = await cluster.createDatabase('porchlight_replicas');
    dir = mkdtempSync(join(tmpdir(), 'pl-replicas-'));
    sink = await startSmtpSink();
    api = await startApiProcess(join(dir, 'api.db'));
    client = createClient({ baseUrl: api.url, apiKey: api.key });
    const portB = await freePort();
    const shared = {
      STATUS_API_URL: api.url,
      STATUS_API_KEY: api.key,
      SITE_PUBLIC_URL: `http://127.0.0.1:${portB}`,
      DATABASE_URL: databaseUrl,
      CACHE_FRESH_SECONDS: '60',
      PUSH_POLL_SECONDS: '300',
      PAGE_CACHE_SECONDS: '1',
      HISTORY_BACKFILL_PAGES: '0',
      METRICS_PORT: '0',
      // E-mail subscriptions on both, their store in the same database (schema subscribers).
      SUBSCRIPTIONS: 'true',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
    };
    b = await startPorchlightProcess({ ...shared, PORT: String(portB) });
    c = await startPorchlightProcess({ ...shared, PORT: String(await freePort()) });
    for (const site of [b, c]) await within(async () => (await text(`${site.siteUrl}/acme`)).status === 200, 'first load');
  });

  test.afterAll(async () => {
    test.setTimeout(60_000);
    await Promise.all([b?.stop(), c?.stop()]);
    await api?.stop();
    await client?.close();
    await sink?.stop();
    cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('both keep one push channel, to B, with the token they share through PostgreSQL; C accepts it too', async () => {
    test.setTimeout(90_000);
    let channels: string[] = [];
    await within(async () => {
      channels = [];
      for await (const channel of client.notifications.listAll()) if (channel.type === 'slack' && isPorchlightPushUrl(channel.webhookUrl)) channels.push(channel.webhookUrl ?? '');
      return channels.length === 1;
    }, 'the push channel');
    const url = new URL(channels[0]!);
    expect(url.origin).toBe(new URL(b.siteUrl).origin);
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      const [row] = await sql<{ value: string }[]>`SELECT value FROM site.site_secrets WHERE name = 'push-token'`;
      expect(url.pathname).toBe(`/_porchlight/push/${row!.value}`);
    } finally {
      await sql.end({ timeout: 5 });
    }
    // The same token opens C's push route (a balancer may pick either).
    const answer = await request(`${c.siteUrl}${url.pathname}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await answer.body.dump();
    expect(answer.statusCode).toBe(202);
  });

  test("a push to B shows on C's page through the fan-out (C's own push route is not used)", async () => {
    test.setTimeout(90_000);
    const acceptedBefore = await metric(c, 'porchlight_push_events_total{result="accepted"}');
    const page = (await client.statusPages.list()).data.find((candidate) => candidate.slug === 'acme')!;
    const title = `Fan-out check ${Date.now()}`;
    await client.incidents.create({ monitorIds: [page.monitors[0]!.monitorId], title, message: 'Looking into it.', severity: 'major' });
    await within(async () => (await text(`${c.siteUrl}/acme`)).body.includes(title), 'the incident on C');
    expect(await metric(c, 'porchlight_push_events_total{result="accepted"}')).toBe(acceptedBefore);
    expect(await metric(c, 'porchlight_push_fanout_total{result="received"}')).toBeGreaterThanOrEqual(1);
    expect(await metric(b, 'porchlight_push_fanout_total{result="sent"}')).toBeGreaterThanOrEqual(1);
    expect(await metric(c, 'porchlight_push_fanout_listener{state="listening"}')).toBe(1);
  });

  test('a killed LISTEN connection reconnects and resyncs: a change no event announced shows on both', async () => {
    test.setTimeout(90_000);
    const resyncsBefore = await metric(c, 'porchlight_push_fanout_total{result="resync"}');
    const page = (await client.statusPages.list()).data.find((candidate) => candidate.slug === 'acme')!;
    const shown = page.monitors[0]!;
    // The page shows the monitor's own name (a page change: pushed, and fanned out).
    const own = `Own name ${Date.now()}`;
    await client.monitors.update(shown.monitorId, { name: own });
    await client.statusPages.update(page.id, { monitors: page.monitors.map((entry, index) => ({ monitorId: entry.monitorId, ...(index > 0 && entry.displayName ? { displayName: entry.displayName } : {}), ...(entry.sortOrder === undefined ? {} : { sortOrder: entry.sortOrder }) })) });
    for (const site of [b, c]) await within(async () => (await text(`${site.siteUrl}/acme`)).body.includes(own), "the monitor's own name");
    const name = `Renamed ${Date.now()}`;
    // A rename sends no event: without the resync it would wait for the 300 s poll.
    await client.monitors.update(shown.monitorId, { name });
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      const killed = await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'porchlight-site-listen'`;
      expect(killed).toHaveLength(2);
    } finally {
      await sql.end({ timeout: 5 });
    }
    for (const site of [b, c]) await within(async () => (await text(`${site.siteUrl}/acme`)).body.includes(name), 'the renamed monitor');
    expect(await metric(c, 'porchlight_push_fanout_total{result="resync"}')).toBeGreaterThan(resyncsBefore);
    await within(async () => (await metric(c, 'porchlight_push_fanout_listener{state="listening"}')) === 1, 'listening again');
  });

  test("the TLS gate answers alike on both replicas when a page's custom domain comes and goes", async () => {
    test.setTimeout(90_000);
    const page = (await client.statusPages.list()).data.find((candidate) => candidate.slug === 'acme')!;
    const domain = `status-${Date.now()}.acme.test`;
    const gate = (site: PorchlightProcess) => text(`${site.siteUrl}/_porchlight/tls-allowed?domain=${domain}`).then((answer) => answer.status);
    try {
      await client.statusPages.update(page.id, { customDomain: domain });
      for (const site of [b, c]) await within(async () => (await gate(site)) === 200, 'allowed');
      await client.statusPages.update(page.id, { customDomain: null });
      // The page change is pushed to B, fanned out to C: C refuses within the bound, not after its 60 s pages read.
      for (const site of [b, c]) await within(async () => (await gate(site)) === 404, 'refused');
    } finally {
      await client.statusPages.update(page.id, { customDomain: page.customDomain ?? null });
    }
    // Back as it was on both, before the next test uses the domain.
    const restoredAt = Date.now();
    if (page.customDomain) for (const site of [b, c]) await within(async () => (await text(`${site.siteUrl}/_porchlight/tls-allowed?domain=${page.customDomain}`)).status === 200, 'the domain back');
    console.log(`domain back on both replicas after ${Date.now() - restoredAt} ms`);
  });

  test('a confirmation link and a manage link made through C work on B, and one-click unsubscribe on C', async () => {
    test.setTimeout(90_000);
    const address = `replicas-${Date.now()}@example.com`;
    const subscribed = await request(`${c.siteUrl}/acme/subscribe`, { method: 'POST', body: new URLSearchParams({ email: address }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(b.siteUrl).origin } });
    expect(subscribed.statusCode, await subscribed.body.text()).toBe(200);
    await within(async () => sink.mailsTo(address).length === 1, 'the confirmation mail');
    const confirm = new URL(linkIn(sink.mailsTo(address)[0]!, '/subscribe/confirm'));
    // The link as the replica gets it: to its own address, with the link's Host (acme's custom domain).
    const on = (site: PorchlightProcess, link: URL) => `${site.siteUrl}${link.pathname}${link.search}`;
    const as = (link: URL) => ({ host: link.host });
    // Shown as valid on either replica; confirmed by a post to B.
    expect((await text(on(c, confirm), as(confirm))).status).toBe(200);
    expect((await text(on(b, confirm), as(confirm))).status).toBe(200);
    const token = confirm.searchParams.get('t')!;
    const confirmed = await request(on(b, confirm), { method: 'POST', body: new URLSearchParams({ t: token }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...as(confirm) } });
    expect(confirmed.statusCode, await confirmed.body.text()).toBe(200);
    // An event: one mail to the subscriber (whichever replica sends it), with its signed links.
    const page = (await client.statusPages.list()).data.find((candidate) => candidate.slug === 'acme')!;
    await client.incidents.create({ monitorIds: [page.monitors[0]!.monitorId], title: `Mail check ${Date.now()}`, message: 'Looking into it.', severity: 'minor' });
    await within(async () => sink.mailsTo(address).length === 2, 'the incident mail');
    const mail: ReceivedMail = sink.mailsTo(address)[1]!;
    const manage = new URL(linkIn(mail, '/subscribe/manage'));
    expect((await text(on(b, manage), as(manage))).status).toBe(200);
    expect((await text(on(c, manage), as(manage))).status).toBe(200);
    const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
    const oneClick = new URL(/^List-Unsubscribe: <([^>]+)>$/m.exec(head)![1]!);
    const left = await request(on(c, oneClick), { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded', ...as(oneClick) } });
    expect(await left.body.text()).toContain('You are unsubscribed');
    // Gone for B too.
    expect((await text(on(b, manage), as(manage))).status).toBe(410);
  });
});
